import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { notifier } from 'notifier';
import { formatMillis, showError } from './pacer-ui.js';
import { columnBodyRenderer } from '@vaadin/grid/lit.js';
import '@vaadin/grid';
import '@vaadin/button';

/**
 * Pacer's schedules page: the PACER jobs of this instance with their state in Redis (next fire time, last claimed tick,
 * paused on every instance) and their last outcome here; the recurring schedules of delay queues. Pause and resume on
 * every instance, run a job's method now on this instance, trigger a recurring schedule now.
 */
export class QwcPacerSchedules extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 10px; padding: 10px 16px; height: 100%; }
        h3 { margin: 6px 0 2px 0; font-size: var(--lumo-font-size-m); }
        .hint { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-s); }
        .wrap { white-space: normal; word-break: break-all; }
        .line { display: block; white-space: nowrap; }
        .block { display: block; white-space: normal; overflow-wrap: anywhere; }
        .small { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-xs); }
        .ok { color: var(--lumo-success-text-color); }
        .warn { color: var(--lumo-error-text-color); font-weight: bold; }
        .badge { border-radius: 4px; padding: 1px 6px; font-size: var(--lumo-font-size-xs);
            background: var(--lumo-contrast-10pct); }
        .paused { background: var(--lumo-error-color-10pct); color: var(--lumo-error-text-color); }
        .active { background: var(--lumo-success-color-10pct); color: var(--lumo-success-text-color); }
        pre { margin: 0; white-space: pre-wrap; word-break: break-all; font-size: var(--lumo-font-size-xs); }
    `;

    static properties = {
        _jobs: { state: true },
        _recurring: { state: true },
    };

    constructor() {
        super();
        this._jobs = null;
        this._recurring = null;
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
        this.jsonRpc.getJobs().then(r => { this._jobs = r.result; }).catch(e => { if (!quiet) this._error(e); });
        this.jsonRpc.getRecurringSchedules().then(r => { this._recurring = r.result; })
            .catch(e => { if (!quiet) this._error(e); });
    }

    render() {
        return html`${this._renderJobs()}${this._renderRecurring()}`;
    }

    _renderJobs() {
        if (this._jobs === null) {
            return html`<span>Loading PACER jobs...</span>`;
        }
        if (!this._jobs.available) {
            return html`<div><h3>PACER jobs</h3>
                <div class="hint">The <code>PACER</code> scheduler is not in this application: it needs Quarkus's
                    composite scheduler (<code>quarkus.scheduler.use-composite-scheduler=true</code>).</div></div>`;
        }
        const jobs = this._jobs.jobs;
        return html`
            <div>
                <h3>PACER jobs</h3>
                <div class="hint">The <code>@Scheduled(executeWith = "PACER")</code> methods and programmatic jobs of
                    this instance, refreshed every 2 s. Next fire time, last claimed tick and paused are read from Redis
                    (Redis clock) and hold for every instance; the last outcome is this instance's. <b>Pause</b> and
                    <b>Resume</b> act on every instance; <b>Run now</b> runs the method once on this instance, outside
                    its ticks.</div>
            </div>
            ${jobs.length === 0 ? html`<div class="hint">No PACER job on this instance.</div>` : html`
            <vaadin-grid .items=${jobs} theme="wrap-cell-content row-stripes" all-rows-visible>
                <vaadin-grid-column header="Job" flex-grow="3" ${columnBodyRenderer(j => this._jobCell(j), [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Schedule" flex-grow="1" ${columnBodyRenderer(j => this._timing(j), [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Next fire time" flex-grow="1"
                    ${columnBodyRenderer(j => this._time(j.nextFireTime, j.redisNow, j.paused), [])}></vaadin-grid-column>
                <vaadin-grid-column header="Last claimed tick" flex-grow="1"
                    ${columnBodyRenderer(j => this._lastTick(j), [])}></vaadin-grid-column>
                <vaadin-grid-column header="Last outcome here" flex-grow="1"
                    ${columnBodyRenderer(j => this._outcome(j), [])}></vaadin-grid-column>
                <vaadin-grid-column header="" flex-grow="0" width="200px" ${columnBodyRenderer(j => html`
                    ${j.paused
                        ? html`<vaadin-button theme="small primary" @click=${() => this._act('resumeJob', { identity: j.identity }, `Resumed ${j.identity}`)}>Resume</vaadin-button>`
                        : html`<vaadin-button theme="small" @click=${() => this._act('pauseJob', { identity: j.identity }, `Paused ${j.identity}`)}>Pause</vaadin-button>`}
                    <vaadin-button theme="small" @click=${() => this._act('runJobNow', { identity: j.identity }, `Started ${j.identity} on this instance`)}>Run now</vaadin-button>`, [])}>
                </vaadin-grid-column>
            </vaadin-grid>`}`;
    }

    _jobCell(j) {
        return html`<span class="wrap"><b>${j.identity}</b></span>
            ${j.paused ? html`<span class="badge paused">paused</span>` : html`<span class="badge active">active</span>`}
            <span class="small block">${j.programmatic
                ? (j.storedInRedis ? 'programmatic job, stored in Redis' : 'programmatic job, this instance only')
                : j.method}</span>`;
    }

    _lastTick(j) {
        return html`${this._time(j.lastClaimedTick, j.redisNow)}
            ${j.runningSince !== null && j.runningSince !== undefined
                ? html`<span class="small line">a run is in flight (tick of ${new Date(j.runningSince).toLocaleTimeString()})</span>` : ''}`;
    }

    _outcome(j) {
        const o = j.lastOutcome;
        const runs = html`<span class="small line">${j.runsHere} tick run(s) here</span>`;
        if (!o) {
            return html`<span class="small">none yet</span>${runs}`;
        }
        const cls = o.result === 'SUCCESS' ? 'ok' : o.result === 'FAILURE' ? 'warn' : '';
        return html`<span class="${cls}">${o.result.toLowerCase()}</span>
            <span class="small line">${o.byHand ? 'run now' : 'tick'} · ${new Date(o.at).toLocaleTimeString()}</span>
            ${o.message ? html`<span class="small block" title=${o.message}>${o.message}</span>` : ''}${runs}`;
    }

    _renderRecurring() {
        if (this._recurring === null) {
            return html`<span>Loading recurring schedules...</span>`;
        }
        const rows = this._recurring;
        return html`
            <div>
                <h3>Recurring schedules</h3>
                <div class="hint">The recurring schedules of delay queues stored in Redis
                    (<code>RecurringSchedules</code>), each delivering its payload to its queue at every tick. <b>Pause</b>
                    and <b>Resume</b> act on every instance; <b>Trigger now</b> schedules the payload on the queue once,
                    at once, off the schedule's grid.</div>
            </div>
            ${rows.length === 0 ? html`<div class="hint">No recurring schedule.</div>` : html`
            <vaadin-grid .items=${rows} theme="wrap-cell-content row-stripes" all-rows-visible>
                <vaadin-grid-column header="Schedule" flex-grow="1" ${columnBodyRenderer(s => html`
                    <span class="wrap"><b>${s.id}</b></span>
                    ${s.paused ? html`<span class="badge paused">paused</span>` : html`<span class="badge active">active</span>`}`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Timing" flex-grow="1" ${columnBodyRenderer(s => this._timing(s), [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Queue" flex-grow="1"
                    ${columnBodyRenderer(s => html`<span class="wrap">${s.queue}</span>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Next fire time" flex-grow="1"
                    ${columnBodyRenderer(s => this._time(s.nextFireTime, Date.now(), s.paused), [])}></vaadin-grid-column>
                <vaadin-grid-column header="Payload" flex-grow="2"
                    ${columnBodyRenderer(s => html`<pre>${s.payload}${s.truncated ? '…' : ''}</pre>`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="" flex-grow="0" width="230px" ${columnBodyRenderer(s => html`
                    ${s.paused
                        ? html`<vaadin-button theme="small primary" @click=${() => this._act('resumeRecurring', { id: s.id }, `Resumed ${s.id}`)}>Resume</vaadin-button>`
                        : html`<vaadin-button theme="small" @click=${() => this._act('pauseRecurring', { id: s.id }, `Paused ${s.id}`)}>Pause</vaadin-button>`}
                    <vaadin-button theme="small" @click=${() => this._act('triggerRecurringNow', { id: s.id }, `Triggered ${s.id}`)}>Trigger now</vaadin-button>`, [])}>
                </vaadin-grid-column>
            </vaadin-grid>`}`;
    }

    _timing(t) {
        if (t.cron) {
            return html`<code>${t.cron}</code><span class="small line">${t.zone}</span>`;
        }
        return html`every ${this._period(t.everyMillis)}`;
    }

    /** A period as configured: the largest whole unit. */
    _period(millis) {
        const units = [[86400000, 'd'], [3600000, 'h'], [60000, 'm'], [1000, 's']];
        for (const [size, unit] of units) {
            if (millis % size === 0) return (millis / size) + unit;
        }
        return millis + 'ms';
    }

    /**
     * A time, and how far it is from now (Redis clock for the jobs); a paused schedule keeps the tick it was waiting
     * for when it was paused.
     */
    _time(millis, now, paused) {
        if (millis === null || millis === undefined) {
            return html`<span class="small">-</span>`;
        }
        const diff = millis - now;
        const when = diff >= 0 ? 'in ' + this._ms(diff) : this._ms(-diff) + ' ago';
        return html`<span class="block" title=${new Date(millis).toISOString()}>${this._when(millis)}</span>
            <span class="small block">${paused === true ? (diff >= 0 ? when + ' · paused' : 'paused, waits for resume') : when}</span>`;
    }

    /** The time of day, with the date when it is not today. */
    _when(millis) {
        const date = new Date(millis);
        const time = date.toLocaleTimeString();
        return date.toDateString() === new Date().toDateString() ? time : date.toLocaleDateString() + ' ' + time;
    }

    _act(method, params, message) {
        this.jsonRpc[method](params).then(r => {
            const res = r.result;
            if (res.found === false) {
                notifier.showWarningMessage(`${method}: no such schedule ${res.id}`);
            } else {
                notifier.showInfoMessage(res.messageId ? `${message}: message ${res.messageId}` : message);
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
customElements.define('qwc-pacer-schedules', QwcPacerSchedules);
