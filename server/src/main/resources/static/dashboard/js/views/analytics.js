/**
 * Spring XD's analytics (/metrics/...): counters and gauges as tables, rich gauges with their mean, minimum and
 * maximum, each field-value counter as a bar chart of its most frequent values, each aggregate counter as a column
 * chart over time at the resolution chosen. The charts are SVG drawn here (no chart library: two simple charts, and
 * their bars stay elements a test or a screen reader can read). Refreshed at each poll while shown.
 */
import { api, path } from '../api.js';
import { h, s, setText } from '../dom.js';
import { formatTime } from '../format.js';

const KINDS = ['counters', 'field-value-counters', 'aggregate-counters', 'gauges', 'rich-gauges'];

/** Enough for a page people read; more is reported, not fetched. */
const MAX_METRICS = 200;

/** The values a field-value counter's chart shows, highest first. */
const TOP_VALUES = 12;

export function mount(main, ctx) {
	const resolution = h('select', { id: 'analytics-resolution', 'aria-label': 'Aggregate counter resolution' },
		['minute', 'hour', 'day', 'month'].map((value) => h('option', { value, selected: value === 'hour' }, value)));
	const summary = h('span', { class: 'summary muted', id: 'analytics-summary' }, 'Loading…');
	const sections = {
		counters: h('div', { id: 'analytics-counters' }),
		gauges: h('div', { id: 'analytics-gauges' }),
		'rich-gauges': h('div', { id: 'analytics-rich-gauges' }),
		'field-value-counters': h('div', { id: 'analytics-field-value-counters', class: 'charts' }),
		'aggregate-counters': h('div', { id: 'analytics-aggregate-counters', class: 'charts' }),
	};
	main.replaceChildren(h('section', { class: 'page analytics-page' },
		h('div', { class: 'toolbar' }, h('h1', {}, 'Analytics'), summary),
		h('h2', {}, 'Counters'), sections.counters,
		h('h2', {}, 'Gauges'), sections.gauges,
		h('h2', {}, 'Rich gauges'), sections['rich-gauges'],
		h('h2', {}, 'Field-value counters'), sections['field-value-counters'],
		h('div', { class: 'toolbar' }, h('h2', {}, 'Aggregate counters'),
			h('label', { class: 'check' }, 'per ', resolution)),
		sections['aggregate-counters']));

	let active = true;
	let asking = false;
	/** The metric whose Delete was clicked once, kept across the re-renders of each poll until confirmed. */
	let pending = null;

	async function update() {
		if (asking) {
			return;
		}
		asking = true;
		let pages;
		try {
			pages = await Promise.all(KINDS.map((kind) => {
				const extra = kind === 'aggregate-counters' ? `&resolution=${encodeURIComponent(resolution.value)}` : '';
				return api.get(`${path`/metrics/${kind}`}?detailed=true&size=${MAX_METRICS}${extra}`);
			}));
		}
		catch (error) {
			if (active) {
				setText(summary, error.message);
			}
			return;
		}
		finally {
			asking = false;
		}
		if (!active) {
			return;
		}
		const byKind = Object.fromEntries(KINDS.map((kind, i) => [kind, pages[i].content]));
		sections.counters.replaceChildren(valueTable('counter', byKind.counters));
		sections.gauges.replaceChildren(valueTable('gauge', byKind.gauges));
		sections['rich-gauges'].replaceChildren(richGaugeTable(byKind['rich-gauges']));
		sections['field-value-counters'].replaceChildren(...cards(byKind['field-value-counters'], 'field-value counter',
			(metric) => barChart(metric.counts || {})));
		sections['aggregate-counters'].replaceChildren(...cards(byKind['aggregate-counters'], 'aggregate counter',
			(metric) => timeChart(metric.counts || {}, metric.resolution), (metric) => `total ${metric.total}`));
		const total = KINDS.reduce((sum, kind, i) => sum + pages[i].page.totalElements, 0);
		setText(summary, `${total} metric${total === 1 ? '' : 's'}`);
	}

	function valueTable(kind, metrics) {
		if (metrics.length === 0) {
			return h('p', { class: 'empty' }, `No ${kind}s yet: a ${kind} sink creates one.`);
		}
		return h('table', { class: 'metrics' },
			h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', { class: 'num' }, 'Value'), actionHeader())),
			h('tbody', {}, metrics.map((metric) => h('tr', { dataset: { metric: metric.name } },
				h('td', { class: 'name' }, metric.name), h('td', { class: 'num value' }, String(metric.value)),
				actionCell(kind, metric.name)))));
	}

	function richGaugeTable(metrics) {
		if (metrics.length === 0) {
			return h('p', { class: 'empty' }, 'No rich gauges yet: a rich-gauge sink creates one.');
		}
		const columns = ['value', 'average', 'min', 'max', 'count', 'alpha'];
		return h('table', { class: 'metrics' },
			h('thead', {}, h('tr', {}, h('th', {}, 'Name'), columns.map((c) => h('th', { class: 'num' }, c)),
				actionHeader())),
			h('tbody', {}, metrics.map((metric) => h('tr', { dataset: { metric: metric.name } },
				h('td', { class: 'name' }, metric.name),
				columns.map((c) => h('td', { class: `num ${c}` }, formatNumber(metric[c]))),
				actionCell('rich gauge', metric.name)))));
	}

	function cards(metrics, kind, chart, note) {
		if (metrics.length === 0) {
			return [h('p', { class: 'empty' }, `No ${kind}s yet: a ${kind.replace(' ', '-')} sink creates one.`)];
		}
		return metrics.map((metric) => h('article', { class: 'card chart', dataset: { metric: metric.name } },
			h('div', { class: 'toolbar' }, h('h3', {}, metric.name), note ? h('span', { class: 'muted small' }, note(metric))
				: null, h('span', { class: 'spacer' }), deleteButton(kind, metric.name)),
			chart(metric)));
	}

	function actionHeader() {
		return ctx.can('DESTROY') ? h('th', {}, '') : null;
	}

	function actionCell(kind, name) {
		return ctx.can('DESTROY') ? h('td', { class: 'actions' }, deleteButton(kind, name)) : null;
	}

	/** For DESTROY users: deletes the metric, after a second click that confirms. */
	function deleteButton(kind, name) {
		if (!ctx.can('DESTROY')) {
			return null;
		}
		const kindPath = { 'counter': 'counters', 'gauge': 'gauges', 'rich gauge': 'rich-gauges',
			'field-value counter': 'field-value-counters', 'aggregate counter': 'aggregate-counters' }[kind];
		const key = `${kindPath}/${name}`;
		const button = h('button', { type: 'button', class: 'danger', dataset: { delete: name } },
			pending === key ? `Delete ${kind} ${name}?` : 'Delete');
		button.addEventListener('click', async () => {
			if (pending !== key) {
				pending = key;
				button.textContent = `Delete ${kind} ${name}?`;
				return;
			}
			pending = null;
			try {
				await api.delete(path`/metrics/${kindPath}/${name}`);
				ctx.toast(`Deleted ${kind} '${name}'`);
				update();
			}
			catch (error) {
				ctx.toast(error.message, 'error');
			}
		});
		return button;
	}

	resolution.addEventListener('change', () => update());
	update();
	return {
		update,
		unmount() {
			active = false;
		},
	};
}

/** Whole numbers as they are, others with up to 3 decimals. */
function formatNumber(value) {
	if (typeof value !== 'number') {
		return value === undefined || value === null ? '' : String(value);
	}
	return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/\.?0+$/, '');
}

/** Horizontal bars, one per value (the highest first, as the server sorts them), each with its count. */
function barChart(counts) {
	const entries = Object.entries(counts).slice(0, TOP_VALUES);
	const more = Object.keys(counts).length - entries.length;
	if (entries.length === 0) {
		return h('p', { class: 'muted' }, 'No values counted.');
	}
	const row = 24;
	const label = 140;
	const width = 520;
	const max = Math.max(...entries.map(([, count]) => count), 1);
	const svg = s('svg', { class: 'bar-chart', width, height: entries.length * row + 4,
		role: 'img', 'aria-label': 'Counts per value' },
	entries.map(([value, count], i) => {
		const y = i * row + 2;
		const length = Math.max(2, (count / max) * (width - label - 60));
		return s('g', { class: 'bar', dataset: { value, count: String(count) } },
			s('text', { x: label - 8, y: y + 15, class: 'label' }, value.length > 18 ? `${value.slice(0, 17)}…` : value),
			s('rect', { x: label, y, width: length, height: row - 6, rx: 2 }),
			s('text', { x: label + length + 6, y: y + 15, class: 'count' }, formatNumber(count)));
	}));
	return h('div', { class: 'chart-holder' }, svg,
		more > 0 ? h('p', { class: 'muted small' }, `and ${more} more value${more === 1 ? '' : 's'}`) : null);
}

/** Columns over time, one per bucket (zeros included), with the first and last times and the highest count. */
function timeChart(counts, resolution) {
	const entries = Object.entries(counts);
	if (entries.length === 0) {
		return h('p', { class: 'muted' }, 'No buckets.');
	}
	const width = 560;
	const height = 150;
	const left = 36;
	const bottom = 22;
	const plot = height - bottom - 8;
	const max = Math.max(...entries.map(([, count]) => count), 1);
	const step = (width - left) / entries.length;
	const label = (time) => resolution === 'minute' || resolution === 'hour' ? formatTime(time)
		: time.slice(0, resolution === 'month' ? 7 : 10);
	const svg = s('svg', { class: 'time-chart', width, height, role: 'img',
		'aria-label': `Counts per ${resolution || 'bucket'}` },
	s('line', { x1: left, y1: 8 + plot, x2: width, y2: 8 + plot, class: 'axis' }),
	s('text', { x: left - 4, y: 16, class: 'max' }, String(max)),
	s('text', { x: left - 4, y: 8 + plot, class: 'max' }, '0'),
	entries.map(([time, count], i) => {
		const barHeight = (count / max) * plot;
		return s('rect', { class: 'bucket', x: left + i * step + 1, y: 8 + plot - barHeight,
			width: Math.max(1, step - 2), height: barHeight, dataset: { time, count: String(count) } },
		s('title', {}, `${time}: ${count}`));
	}),
	s('text', { x: left, y: height - 4, class: 'time start' }, label(entries[0][0])),
	s('text', { x: width, y: height - 4, class: 'time end' }, label(entries[entries.length - 1][0])));
	return h('div', { class: 'chart-holder' }, svg);
}
