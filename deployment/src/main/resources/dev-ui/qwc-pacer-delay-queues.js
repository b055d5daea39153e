import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { notifier } from 'notifier';
import { formatMillis, showError } from './pacer-ui.js';
import { columnBodyRenderer } from '@vaadin/grid/lit.js';
import '@vaadin/grid';
import '@vaadin/button';
import '@vaadin/text-field';
import '@vaadin/text-area';
import '@vaadin/integer-field';
import '@vaadin/tabs';
import '@vaadin/icon';

const PAGE = 50;

/**
 * Pacer's delay-queue page: live depth per queue and state, consumers and their counters, queues found in Redis with
 * no consumer here; browsing of waiting messages and dead letters of one queue; deliver now, cancel, replay, purge and
 * a test-message form.
 */
export class QwcPacerDelayQueues extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 10px; padding: 10px 16px; height: 100%; }
        h3 { margin: 6px 0 2px 0; font-size: var(--lumo-font-size-m); }
        .hint { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-s); }
        .wrap { white-space: normal; word-break: break-all; }
        .line { display: block; white-space: nowrap; }
        .small { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-xs); }
        .num { font-variant-numeric: tabular-nums; }
        .warn { color: var(--lumo-error-text-color); font-weight: bold; }
        .late { color: var(--lumo-error-text-color); }
        .badge { background: var(--lumo-error-color-10pct); color: var(--lumo-error-text-color); border-radius: 4px;
            padding: 1px 6px; font-size: var(--lumo-font-size-xs); }
        .selected { font-weight: bold; }
        .toolbar { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; }
        .form { display: flex; gap: 8px; align-items: flex-end; flex-wrap: wrap; }
        .form vaadin-text-area { min-width: 360px; }
        pre { margin: 0; white-space: pre-wrap; word-break: break-all; font-size: var(--lumo-font-size-xs); }
    `;

    static properties = {
        _queues: { state: true },
        _afterCommit: { state: true },
        _selected: { state: true },
        _tab: { state: true },
        _waiting: { state: true },
        _dead: { state: true },
        _testId: { state: true },
        _testPayload: { state: true },
        _testDelay: { state: true },
    };

    constructor() {
        super();
        this._queues = null;
        this._afterCommit = null;
        this._selected = null;
        this._tab = 0;
        this._waiting = [];
        this._dead = [];
        this._testId = '';
        this._testPayload = '';
        this._testDelay = 0;
    }

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
        this._timer = setInterval(() => this._refresh(true), 2000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _refresh(quiet) {
        this.jsonRpc.getAfterCommit().then(r => { this._afterCommit = r.result; }).catch(() => { });
        this.jsonRpc.getQueues().then(r => {
            this._queues = r.result;
            if (this._selected === null && this._queues.length > 0) {
                this._select(this._queues[0].queue);
            } else if (this._selected !== null) {
                this._browse();
            }
        }).catch(e => { if (!quiet) this._error(e); });
    }

    _afterCommitLine() {
        const a = this._afterCommit;
        if (!a || !a.enabled) {
            return html``;
        }
        return html`<div class="hint">Schedule on commit: <span class="num ${a.pending > 0 ? 'warn' : ''}">${a.pending}</span>
            operations of committed transactions waiting for Redis (retried for
            <code>quarkus.pacer.delayed.after-commit.retry-for</code>).</div>`;
    }

    _select(queue) {
        this._selected = queue;
        this._browse();
    }

    _browse() {
        const queue = this._selected;
        this.jsonRpc.getWaitingMessages({ queue: queue, limit: PAGE }).then(r => {
            if (queue === this._selected) this._waiting = r.result;
        }).catch(() => { });
        this.jsonRpc.getDeadLetters({ queue: queue, limit: PAGE }).then(r => {
            if (queue === this._selected) this._dead = r.result;
        }).catch(() => { });
    }

    render() {
        if (this._queues === null) {
            return html`<span>Loading delay queues...</span>`;
        }
        return html`
            <div>
                <h3>Queues</h3>
                <div class="hint">Live from Redis, refreshed every 2 s. <b>Overdue</b>: due and not yet claimed;
                    a queue <span class="badge">no consumer here</span> holds messages in Redis that no
                    <code>@Delayed</code> method of this application consumes (a typo in a queue name?). Click a row to
                    browse its messages.</div>
                ${this._afterCommitLine()}
            </div>
            <vaadin-grid .items=${this._queues} theme="wrap-cell-content row-stripes" all-rows-visible
                @active-item-changed=${e => { if (e.detail.value) this._select(e.detail.value.queue); }}>
                <vaadin-grid-column header="Queue" flex-grow="1" ${columnBodyRenderer(q => this._queueCell(q), [this._selected])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Consumer" flex-grow="3" ${columnBodyRenderer(q => this._consumerCell(q), [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Scheduled" flex-grow="0" width="100px"
                    ${columnBodyRenderer(q => html`<span class="num">${q.scheduled}</span>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Overdue" flex-grow="0" width="150px"
                    ${columnBodyRenderer(q => this._overdueCell(q), [])}></vaadin-grid-column>
                <vaadin-grid-column header="In flight" flex-grow="0" width="90px"
                    ${columnBodyRenderer(q => html`<span class="num">${q.inFlight}</span>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Dead" flex-grow="0" width="80px"
                    ${columnBodyRenderer(q => html`<span class="num ${q.dead > 0 ? 'warn' : ''}">${q.dead}</span>`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Handled here" flex-grow="1" ${columnBodyRenderer(q => this._statsCell(q), [])}>
                </vaadin-grid-column>
            </vaadin-grid>
            ${this._selected === null ? html`<div class="hint">No delay queue yet.</div>` : this._renderSelected()}
        `;
    }

    _queueCell(q) {
        return html`<span class="wrap ${q.queue === this._selected ? 'selected' : ''}">${q.queue}</span>
            ${!q.consumer ? html`<br><span class="badge">no consumer here</span>` : ''}`;
    }

    _consumerCell(q) {
        if (!q.consumer) {
            return html`<span class="small">No @Delayed method of this application consumes this queue.</span>`;
        }
        return html`<span class="wrap" title=${q.consumer}>${q.consumer}(${q.payloadType})</span>
            <span class="small line">${q.consumedHere ? '' : 'disabled here · '}concurrency ${q.concurrency} ·
                max attempts ${q.maxAttempts} · backoff ${this._ms(q.backoffMillis)} · lease ${this._ms(q.leaseMillis)}</span>`;
    }

    _overdueCell(q) {
        if (q.overdue === 0) {
            return html`<span class="num">0</span>`;
        }
        return html`<span class="num late">${q.overdue}</span>
            <span class="small line">oldest ${this._ms(q.oldestOverdueMillis)} late</span>`;
    }

    _statsCell(q) {
        if (q.delivered === undefined) {
            return html`<span class="small">-</span>`;
        }
        return html`<span class="small line">delivered ${q.delivered} · failed ${q.failed} · retried ${q.retried}</span>
            <span class="small line">dead-lettered ${q.deadLettered} · redelivered ${q.redelivered}</span>
            <span class="small line">max lateness ${this._ms(q.maxLatenessMillis)}</span>`;
    }

    _renderSelected() {
        const queue = this._selected;
        return html`
            <div class="toolbar">
                <h3>Queue <code>${queue}</code></h3>
                <vaadin-tabs .selected=${this._tab} @selected-changed=${e => this._tab = e.detail.value}>
                    <vaadin-tab>Waiting (${this._waiting.length}${this._waiting.length >= PAGE ? '+' : ''})</vaadin-tab>
                    <vaadin-tab>Dead letters (${this._dead.length}${this._dead.length >= PAGE ? '+' : ''})</vaadin-tab>
                    <vaadin-tab>Schedule a test message</vaadin-tab>
                </vaadin-tabs>
            </div>
            ${this._tab === 0 ? this._renderWaiting(queue) : this._tab === 1 ? this._renderDead(queue) : this._renderForm(queue)}
        `;
    }

    _renderWaiting(queue) {
        if (this._waiting.length === 0) {
            return html`<div class="hint">No waiting message.</div>`;
        }
        return html`
            <div class="hint">The first ${PAGE} waiting messages by due time.</div>
            <vaadin-grid .items=${this._waiting} theme="compact wrap-cell-content" all-rows-visible>
                <vaadin-grid-column header="Id" flex-grow="1" ${columnBodyRenderer(m => html`<span class="wrap">${m.id}</span>`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Due" flex-grow="1" ${columnBodyRenderer(m => this._dueCell(m), [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Attempts" flex-grow="0" width="90px"
                    ${columnBodyRenderer(m => html`${m.attempts}${m.redeliveries ? html`<span class="small"> (+${m.redeliveries} redelivered)</span>` : ''}`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Payload" flex-grow="3"
                    ${columnBodyRenderer(m => html`<pre>${m.payload}${m.truncated ? '…' : ''}</pre>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="" flex-grow="0" width="220px" ${columnBodyRenderer(m => html`
                    <vaadin-button theme="small primary" @click=${() => this._act('deliverNow', { queue: queue, id: m.id })}>Deliver now</vaadin-button>
                    <vaadin-button theme="small error" @click=${() => this._act('cancel', { queue: queue, id: m.id })}>Cancel</vaadin-button>`, [])}>
                </vaadin-grid-column>
            </vaadin-grid>`;
    }

    _dueCell(m) {
        const inMillis = m.dueAtMillis - Date.now();
        return html`<span class="line">${new Date(m.dueAtMillis).toLocaleString()}</span>
            <span class="small line ${inMillis < 0 ? 'late' : ''}">${inMillis >= 0 ? 'in ' + this._ms(inMillis) : this._ms(-inMillis) + ' overdue'}</span>`;
    }

    _renderDead(queue) {
        return html`
            <div class="toolbar">
                <vaadin-button theme="small primary" ?disabled=${this._dead.length === 0}
                    @click=${() => this._act('replayAll', { queue: queue })}>Replay all</vaadin-button>
                <vaadin-button theme="small error" ?disabled=${this._dead.length === 0}
                    @click=${() => { if (confirm(`Delete every dead letter of ${queue} for good?`)) this._act('purgeAll', { queue: queue }); }}>Purge all</vaadin-button>
                <span class="hint">The oldest ${PAGE} dead letters.</span>
            </div>
            ${this._dead.length === 0 ? html`<div class="hint">No dead letter.</div>` : html`
            <vaadin-grid .items=${this._dead} theme="compact wrap-cell-content" all-rows-visible>
                <vaadin-grid-column header="Id" flex-grow="1" ${columnBodyRenderer(d => html`<span class="wrap">${d.id}</span>`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Dead since" flex-grow="1"
                    ${columnBodyRenderer(d => html`${new Date(d.deadAt).toLocaleString()}`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Attempts" flex-grow="0" width="90px" ${columnBodyRenderer(d => html`${d.attempts}`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Reason" flex-grow="2"
                    ${columnBodyRenderer(d => html`<span class="wrap late">${d.reason}</span>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Payload" flex-grow="2"
                    ${columnBodyRenderer(d => html`<pre>${d.payload}${d.truncated ? '…' : ''}</pre>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="" flex-grow="0" width="180px" ${columnBodyRenderer(d => html`
                    <vaadin-button theme="small primary" @click=${() => this._act('replay', { queue: queue, id: d.id })}>Replay</vaadin-button>
                    <vaadin-button theme="small error" @click=${() => this._act('purge', { queue: queue, id: d.id })}>Purge</vaadin-button>`, [])}>
                </vaadin-grid-column>
            </vaadin-grid>`}`;
    }

    _renderForm(queue) {
        const q = this._queues.find(x => x.queue === queue);
        const type = q && q.payloadType ? q.payloadType : 'text';
        return html`
            <div class="hint">Stores the payload as typed: JSON for object payloads (checked against
                <code>${type}</code>), plain text for <code>String</code>. The same id replaces a waiting message.</div>
            <div class="form">
                <vaadin-text-field label="Id (blank: random)" .value=${this._testId}
                    @value-changed=${e => this._testId = e.detail.value}></vaadin-text-field>
                <vaadin-text-area label="Payload" placeholder='{"id": 42}' .value=${this._testPayload}
                    @value-changed=${e => this._testPayload = e.detail.value}></vaadin-text-area>
                <vaadin-integer-field label="Delay (ms)" min="0" step-buttons-visible .value=${String(this._testDelay)}
                    @value-changed=${e => this._testDelay = parseInt(e.detail.value || '0', 10)}></vaadin-integer-field>
                <vaadin-button theme="primary" @click=${() => this._schedule(queue)}>Schedule</vaadin-button>
            </div>`;
    }

    _schedule(queue) {
        this.jsonRpc.scheduleTestMessage({ queue: queue, id: this._testId, payload: this._testPayload,
            delayMillis: this._testDelay || 0 }).then(r => {
                notifier.showInfoMessage(`Scheduled ${r.result.id} on ${queue}, due in ${this._ms(r.result.delayMillis)}`);
                this._refresh(true);
            }).catch(e => this._error(e));
    }

    _act(method, params) {
        this.jsonRpc[method](params).then(r => {
            const res = r.result;
            const what = res.id ? `${res.id}` : `${res.count} message(s)`;
            if (res.id && res.count === 0) {
                notifier.showWarningMessage(`${method}: no such message ${res.id} in ${res.queue} (already delivered or in flight?)`);
            } else {
                notifier.showInfoMessage(`${method} ${what} on ${res.queue}`);
            }
            this._refresh(true);
        }).catch(e => this._error(e));
    }

    _ms(millis) {
        return formatMillis(millis);
    }

    _error(e) {
        showError(e);
    }
}
customElements.define('qwc-pacer-delay-queues', QwcPacerDelayQueues);
