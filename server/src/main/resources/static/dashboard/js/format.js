/** Formatting of rates, times and ids for display. */

/** Messages per second for people: '–' before the first measurement, then 0, 3.2, 27, 1.3k, 2.41M. */
export function formatRate(rate) {
	if (rate === null || rate === undefined || Number.isNaN(rate)) {
		return '–';
	}
	if (rate === 0) {
		return '0/s';
	}
	if (rate < 10) {
		return `${rate.toFixed(1)}/s`;
	}
	if (rate < 1000) {
		return `${Math.round(rate)}/s`;
	}
	if (rate < 1e6) {
		return `${(rate / 1e3).toFixed(rate < 1e4 ? 2 : 1)}k/s`;
	}
	return `${(rate / 1e6).toFixed(2)}M/s`;
}

/** A time from the server (ISO text or epoch milliseconds) in the browser's locale, or the value as given. */
export function formatTime(value) {
	if (value === null || value === undefined || value === '') {
		return '';
	}
	const date = new Date(value);
	return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/** The first 8 characters of a container's UUID, as people tell containers apart. */
export function shortId(id) {
	return (id && id.length > 12) ? id.slice(0, 8) : (id || '');
}
