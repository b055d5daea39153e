import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';
import { notifier } from 'notifier';
import { showError } from './pacer-ui.js';
import { columnBodyRenderer } from '@vaadin/grid/lit.js';
import '@vaadin/grid';
import '@vaadin/button';
import '@vaadin/text-field';
import '@vaadin/icon';

/**
 * Pacer's throttling page: the policies in force (annotation, configuration, limits per key and runtime overrides,
 * each value with its source), live decision counts per outcome, a key inspector that peeks at and resets one key, and
 * a form per policy that sets or clears its runtime override on every instance.
 */
export class QwcPacerThrottling extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 12px; padding: 10px 16px; height: 100%; }
        h3 { margin: 6px 0 2px 0; font-size: var(--lumo-font-size-m); }
        .hint { color: var(--lumo-contrast-60pct); font-size: var(--lumo-font-size-s); }
        .inspector { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
        .inspector vaadin-text-field { min-width: 320px; }
        .name { font-weight: bold; }
        .wrap { white-space: normal; word-break: break-all; }
        .setting { display: block; white-space: nowrap; }
        .source { color: var(--lumo-contrast-50pct); font-size: var(--lumo-font-size-xs); white-space: normal;
            word-break: break-all; }
        .override { color: var(--lumo-primary-text-color); font-size: var(--lumo-font-size-xs); white-space: normal;
            word-break: break-all; font-weight: bold; }
        .count { font-variant-numeric: tabular-nums; }
        .rejected { color: var(--lumo-error-text-color); }
        .permitted { color: var(--lumo-success-text-color); }
        .off { color: var(--lumo-contrast-50pct); }
        .runtime { color: var(--lumo-warning-text-color, #b26b00); font-size: var(--lumo-font-size-xs); font-weight: bold; }
        .override-form { display: flex; flex-direction: column; gap: 2px; }
        .override-form input, .override-form select { width: 9em; font-size: var(--lumo-font-size-xs); }
        vaadin-grid { max-height: none; }
    `;

    static properties = {
        _policies: { state: true },
        _counts: { state: true },
        _key: { state: true },
        _inspected: { state: true },
        _inspectedKey: { state: true },
        _editing: { state: true },
    };

    constructor() {
        super();
        this._policies = null;
        this._counts = {};
        this._key = '';
        this._inspected = null;
        this._inspectedKey = null;
        this._editing = null;
    }

    connectedCallback() {
        super.connectedCallback();
        this._load();
        this._timer = setInterval(() => this._refreshCounts(), 2000);
    }

    disconnectedCallback() {
        clearInterval(this._timer);
        super.disconnectedCallback();
    }

    _load() {
        this.jsonRpc.getPolicies().then(r => { this._policies = r.result; }).catch(e => this._error(e));
        this._refreshCounts();
    }

    _refreshCounts() {
        this.jsonRpc.getDecisionCounts().then(r => {
            const counts = {};
            r.result.forEach(c => counts[c.policy] = c);
            this._counts = counts;
        }).catch(() => { /* the app may be restarting; the next tick retries */ });
        if (this._inspectedKey !== null) {
            this._inspect(this._inspectedKey, true);
        }
    }

    render() {
        if (!this._policies) {
            return html`<span>Loading policies...</span>`;
        }
        return html`
            <div>
                <h3>Key inspector</h3>
                <div class="hint">The state of every policy for one key, without taking a permit. The key is the
                    value of the <code>@ThrottleKey</code> parameter (or the resolver's result, e.g. a client address);
                    leave it blank for policies with one global key.</div>
                <div class="inspector">
                    <vaadin-text-field placeholder="key, e.g. acme (blank: global key)" .value=${this._key}
                        clear-button-visible
                        @value-changed=${e => this._key = e.detail.value}
                        @keydown=${e => { if (e.key === 'Enter') this._inspect(this._key); }}></vaadin-text-field>
                    <vaadin-button theme="primary" @click=${() => this._inspect(this._key)}>
                        <vaadin-icon icon="font-awesome-solid:magnifying-glass" slot="prefix"></vaadin-icon>Peek
                    </vaadin-button>
                </div>
                ${this._renderInspected()}
            </div>
            <div>
                <h3>Policies in force</h3>
                <div class="hint">Values of the <code>@Throttled</code> annotation with
                    <code>quarkus.pacer.throttle."&lt;policy&gt;".*</code> overrides applied: a value that does not come
                    from the annotation names its source (hover a value to see it). Precedence: runtime override &gt;
                    limits per key (<code>@Throttled(limits = ...)</code>) &gt; configuration &gt; annotation. A runtime
                    override applies on every instance within a second and stays in Redis until cleared. Decision
                    counts are this instance's since startup, refreshed every 2 s.</div>
            </div>
            <vaadin-grid .items=${this._policies} theme="wrap-cell-content row-stripes" all-rows-visible>
                <vaadin-grid-column header="Policy" flex-grow="2" ${columnBodyRenderer(p => this._policyCell(p), [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Settings" flex-grow="2" ${columnBodyRenderer(p => this._settingsCell(p), [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Declared on / used by" flex-grow="3"
                    ${columnBodyRenderer(p => this._declaredCell(p), [])}></vaadin-grid-column>
                <vaadin-grid-column header="Decisions" flex-grow="1"
                    ${columnBodyRenderer(p => this._countsCell(p), [this._counts])}></vaadin-grid-column>
                <vaadin-grid-column header="Runtime override" flex-grow="2"
                    ${columnBodyRenderer(p => this._overrideCell(p), [this._editing])}></vaadin-grid-column>
            </vaadin-grid>
        `;
    }

    _policyCell(p) {
        return html`<span class="name wrap">${p.name}</span><br>
            <span>${p.algorithm}</span>
            ${p.shadow ? html`<br><span class="hint">shadow: records, never rejects</span>` : ''}
            ${p.enabled ? '' : html`<br><span class="off">disabled</span>`}`;
    }

    /** A value; its source is shown only when it is not the annotation (a configuration override or a default). */
    _setting(label, value, source) {
        const fromAnnotation = source.startsWith('@Throttled');
        const overridden = source.startsWith('quarkus.');
        const runtime = source === 'runtime override';
        const css = runtime ? 'runtime' : overridden ? 'override' : 'source';
        return html`<span class="setting" title=${source}>${label}: <b>${value}</b>
            ${fromAnnotation ? '' : html`<span class="${css}">${overridden ? 'from ' + source : source}</span>`}</span>`;
    }

    _settingsCell(p) {
        const limitLabel = p.algorithm === 'CONCURRENCY' ? 'calls in flight' : 'limit';
        return html`
            ${this._setting(limitLabel, p.limit, p.sources.limit)}
            ${this._setting(p.algorithm === 'CONCURRENCY' ? 'lease' : 'window', p.window, p.sources.window)}
            ${p.burst !== undefined ? this._setting('burst', p.burst, p.sources.burst) : ''}
            ${p.sources.algorithm.startsWith('quarkus.') ? this._setting('algorithm', p.algorithm, p.sources.algorithm) : ''}
            ${p.shadow || p.sources.shadow === 'runtime override' ? this._setting('shadow', String(p.shadow), p.sources.shadow) : ''}
            ${p.enabled && p.sources.enabled !== 'runtime override' ? '' : this._setting('enabled', String(p.enabled), p.sources.enabled)}`;
    }

    _overrideCell(p) {
        if (this._editing !== p.name) {
            const o = p.override;
            return html`${o ? html`<span class="runtime setting">set: ${this._describe(o)}</span>` : html`<span class="off">none</span>`}
                <vaadin-button theme="small" @click=${() => this._editing = p.name}>${o ? 'Change' : 'Override'}</vaadin-button>
                ${o ? html`<vaadin-button theme="small error" @click=${() => this._clearOverride(p.name)}>Clear</vaadin-button>` : ''}`;
        }
        const o = p.override || {};
        return html`<div class="override-form">
            <input id="ov-limit" placeholder="limit" .value=${o.limit ?? ''}>
            <input id="ov-window" placeholder="window, e.g. 1s" .value=${o.windowMillis != null ? o.windowMillis + 'ms' : ''}>
            <input id="ov-burst" placeholder="burst" .value=${o.burst ?? ''}>
            <select id="ov-enabled"><option value="">enabled: as is</option><option value="true">enabled</option>
                <option value="false">disabled</option></select>
            <select id="ov-shadow"><option value="">shadow: as is</option><option value="true">shadow</option>
                <option value="false">enforcing</option></select>
            <span><vaadin-button theme="small primary" @click=${e => this._setOverride(p.name, e.target)}>Set</vaadin-button>
                <vaadin-button theme="small" @click=${() => this._editing = null}>Cancel</vaadin-button></span>
        </div>`;
    }

    _describe(o) {
        const parts = [];
        if (o.limit != null) parts.push('limit ' + o.limit);
        if (o.windowMillis != null) parts.push('window ' + this._ms(o.windowMillis));
        if (o.burst != null) parts.push('burst ' + o.burst);
        if (o.enabled != null) parts.push(o.enabled ? 'enabled' : 'disabled');
        if (o.shadow != null) parts.push(o.shadow ? 'shadow' : 'enforcing');
        return parts.join(', ') || 'nothing';
    }

    _setOverride(policy, button) {
        const form = button.closest('.override-form');
        const value = id => form.querySelector('#' + id).value.trim();
        this.jsonRpc.setOverride({ policy: policy, limit: value('ov-limit'), window: value('ov-window'),
            burst: value('ov-burst'), enabled: value('ov-enabled'), shadow: value('ov-shadow') }).then(() => {
            notifier.showInfoMessage(`Override of ${policy} set on every instance`);
            this._editing = null;
            this._load();
        }).catch(e => this._error(e));
    }

    _clearOverride(policy) {
        this.jsonRpc.clearOverride({ policy: policy }).then(() => {
            notifier.showInfoMessage(`Override of ${policy} cleared on every instance`);
            this._load();
        }).catch(e => this._error(e));
    }

    _declaredCell(p) {
        return html`<span class="wrap" title=${p.declaredOn}>${p.declaredOn}</span>
            ${p.usedBy.filter(m => !p.declaredOn.startsWith(m.split('(')[0] + '(')).map(m =>
                html`<br><span class="source" title=${m}>also ${m}</span>`)}`;
    }

    _countsCell(p) {
        const c = this._counts[p.name];
        if (!c) {
            return html`<span class="off">-</span>`;
        }
        return html`<span class="count permitted setting">permitted: ${c.permitted}</span>
            <span class="count rejected setting">rejected: ${c.rejected}</span>
            ${c.rejectedByOther ? html`<span class="count setting" title="admitted by this policy, rejected by another of the same stack">rejected by another: ${c.rejectedByOther}</span>` : ''}
            ${c.fallback ? html`<span class="count setting" title="Redis did not answer in time; on-redis-failure decided">fallback: ${c.fallback}</span>` : ''}`;
    }

    _renderInspected() {
        if (this._inspected === null) {
            return '';
        }
        const label = this._inspectedKey ? html`key <code>${this._inspectedKey}</code>` : html`the global key`;
        return html`
            <div class="hint">State for ${label} (refreshed every 2 s):</div>
            <vaadin-grid .items=${this._inspected} theme="compact wrap-cell-content" all-rows-visible>
                <vaadin-grid-column header="Policy" flex-grow="2"
                    ${columnBodyRenderer(d => html`<span class="wrap">${d.policy}</span>
                        ${d.global ? html`<span class="source">(one global key)</span>` : ''}`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Remaining"
                    ${columnBodyRenderer(d => html`<b>${d.remaining}</b> of ${d.capacity}`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="Next call"
                    ${columnBodyRenderer(d => d.allowed ? html`<span class="permitted">would pass</span>`
                        : html`<span class="rejected">rejected, retry in ${this._ms(d.retryAfterMillis)}</span>`, [])}>
                </vaadin-grid-column>
                <vaadin-grid-column header="Full again in"
                    ${columnBodyRenderer(d => html`${this._ms(d.resetAfterMillis)}`, [])}></vaadin-grid-column>
                <vaadin-grid-column header="" ${columnBodyRenderer(d => html`
                    <vaadin-button theme="small error" @click=${() => this._reset(d.policy, d.global)}>Reset</vaadin-button>`,
                    [])}></vaadin-grid-column>
            </vaadin-grid>`;
    }

    _ms(millis) {
        if (millis <= 0) return '0 s';
        if (millis < 1000) return millis.toFixed(0) + ' ms';
        if (millis < 120000) return (millis / 1000).toFixed(1) + ' s';
        if (millis < 7200000) return (millis / 60000).toFixed(1) + ' min';
        return (millis / 3600000).toFixed(1) + ' h';
    }

    _inspect(key, quiet) {
        const trimmed = (key || '').trim();
        this.jsonRpc.inspectKey({ key: trimmed }).then(r => {
            this._inspected = r.result;
            this._inspectedKey = trimmed;
        }).catch(e => { if (!quiet) this._error(e); });
    }

    _reset(policy, global) {
        const key = global ? '' : (this._inspectedKey || '');
        this.jsonRpc.resetKey({ policy: policy, key: key }).then(() => {
            notifier.showInfoMessage(`Reset ${policy} for ${key ? 'key ' + key : 'the global key'}`);
            this._inspect(this._inspectedKey, true);
        }).catch(e => this._error(e));
    }

    _error(e) {
        showError(e);
    }
}
customElements.define('qwc-pacer-throttling', QwcPacerThrottling);
