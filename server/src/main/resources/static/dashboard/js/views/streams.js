/**
 * The stream list: name, status, the graph of its modules with their live rates, the rate at its first module,
 * and deploy / undeploy / destroy as the user's roles allow. Rows are kept by stream name and updated in place:
 * a graph is drawn again only when the definition changes, a text is set only when it differs.
 */
import { rowActions } from '../actions.js';
import { h, setClass, setText } from '../dom.js';
import { parseDefinition } from '../dsl.js';
import { formatRate } from '../format.js';
import { streamGraph } from '../graph.js';

export function mount(main, ctx) {
	const filter = h('input', { type: 'search', id: 'stream-filter', placeholder: 'Filter by name or definition',
		'aria-label': 'Filter streams' });
	const summary = h('span', { class: 'summary muted', id: 'stream-summary' });
	const tbody = h('tbody');
	const empty = h('p', { class: 'empty', hidden: true });
	const table = h('table', { class: 'streams', id: 'streams' },
		h('thead', {}, h('tr', {},
			h('th', {}, 'Name'), h('th', {}, 'Status'), h('th', {}, 'Modules and channels'),
			h('th', { class: 'num', title: 'messages per second into the first module' }, 'Rate'),
			h('th', {}, ''))),
		tbody);
	main.replaceChildren(h('section', { class: 'page streams-page' },
		h('div', { class: 'toolbar' },
			h('h1', {}, 'Streams'), summary, h('span', { class: 'spacer' }), filter,
			ctx.can('CREATE') && h('a', { class: 'button primary', href: '#/create' }, 'Create stream')),
		table, empty));

	/** name -> the row's elements and what they were built from */
	const rows = new Map();
	let order = '';

	filter.addEventListener('input', update);

	function update() {
		const { streams, runtime, loaded } = ctx.state;
		const needle = filter.value.trim().toLowerCase();
		const seen = new Set();
		const shown = [];
		let deployed = 0;
		let degraded = 0;
		for (const stream of streams) {
			seen.add(stream.name);
			if (stream.status === 'deployed' || stream.status === 'degraded') {
				deployed++;
			}
			if (stream.status === 'degraded') {
				degraded++;
			}
			let row = rows.get(stream.name);
			if (!row) {
				row = createRow(stream);
				rows.set(stream.name, row);
			}
			updateRow(row, stream, runtime.get(stream.name));
			if (!needle || stream.name.toLowerCase().includes(needle)
				|| stream.definition.toLowerCase().includes(needle)) {
				shown.push(row);
			}
		}
		for (const [name, row] of rows) {
			if (!seen.has(name)) {
				row.tr.remove();
				rows.delete(name);
			}
		}
		const newOrder = shown.map((row) => row.name).join('\n');
		if (newOrder !== order) {
			// rows come and go or the filter changed: put them back in order, in one go
			tbody.replaceChildren(...shown.map((row) => row.tr));
			order = newOrder;
		}
		const more = ctx.state.streamsTotal > streams.length ? ` (the first ${streams.length} of `
			+ `${ctx.state.streamsTotal})` : '';
		const failing = degraded > 0 ? ` (${degraded} degraded: failing messages)` : '';
		setText(summary, loaded ? `${streams.length} streams, ${deployed} deployed${failing}${more}` : 'Loading…');
		empty.hidden = !loaded || shown.length > 0;
		setText(empty, streams.length === 0 ? 'No streams yet.' : 'No stream matches the filter.');
		table.hidden = shown.length === 0;
	}

	function createRow(stream) {
		const status = h('span', { class: 'status' });
		const rate = h('td', { class: 'num rate' });
		const graphCell = h('td', { class: 'graph-cell' });
		const actions = h('td', { class: 'actions' });
		const tr = h('tr', { dataset: { stream: stream.name } },
			h('td', { class: 'name' }, h('a', { href: `#/streams/${encodeURIComponent(stream.name)}` }, stream.name)),
			h('td', {}, status), graphCell, rate, actions);
		return { name: stream.name, tr, status, rate, graphCell, actions, definition: null, graph: null,
			actionsFor: null, firstLabel: null };
	}

	function updateRow(row, stream, runtime) {
		if (row.definition !== stream.definition) {
			const parsed = parseDefinition(stream.definition);
			row.graph = streamGraph(parsed, 'compact');
			row.graphCell.replaceChildren(row.graph.element);
			row.graphCell.title = stream.definition;
			row.firstLabel = parsed.modules.length > 0 ? parsed.modules[0].label : null;
			row.definition = stream.definition;
		}
		const byLabel = runtime ? runtime.byLabel : null;
		row.graph.update(byLabel);
		setText(row.status, stream.status);
		setClass(row.status, `status status-${stream.status}`);
		const first = byLabel && row.firstLabel ? byLabel.get(row.firstLabel) : undefined;
		setText(row.rate, first ? formatRate(first.rate) : '');
		if (row.actionsFor !== stream.status) {
			row.actions.replaceChildren(...rowActions(ctx, stream));
			row.actionsFor = stream.status;
		}
	}

	update();
	return { update };
}
