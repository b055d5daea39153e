import { notifier } from 'notifier';

/** A duration for people: ms, s, min, h or d; '-' when unknown or negative. Shared by Pacer's Dev UI pages. */
export function formatMillis(millis) {
    if (millis === undefined || millis === null || millis < 0) return '-';
    if (millis < 1000) return Math.round(millis) + ' ms';
    if (millis < 120000) return (millis / 1000).toFixed(1) + ' s';
    if (millis < 7200000) return (millis / 60000).toFixed(1) + ' min';
    if (millis < 172800000) return (millis / 3600000).toFixed(1) + ' h';
    return (millis / 86400000).toFixed(1) + ' d';
}

/** Shows the message of a failed JSON-RPC call. */
export function showError(e) {
    const message = (e && e.error && e.error.message) || (e && e.message) || JSON.stringify(e);
    notifier.showErrorMessage(message);
}
