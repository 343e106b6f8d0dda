/**
 * The live containers, each with its attributes and the module instances allocated to it, their states and rates.
 * While this page is shown, each poll also asks for /runtime/containers (one request for all of them).
 */
import { api } from '../api.js';
import { h, setClass, setText } from '../dom.js';
import { formatRate } from '../format.js';

export function mount(main, ctx) {
	const list = h('div', { class: 'containers', id: 'containers' });
	const summary = h('span', { class: 'summary muted' }, 'Loading…');
	main.replaceChildren(h('section', { class: 'page containers-page' },
		h('div', { class: 'toolbar' }, h('h1', {}, 'Containers'), summary), list));
	const cards = new Map();
	let active = true;
	let containers = null;

	let asking = false;

	async function update() {
		if (asking) {
			// the last answer has not come yet: a slow server gets no pile of requests
			return;
		}
		asking = true;
		try {
			const page = await api.get('/runtime/containers?size=1000');
			containers = page.content;
		}
		catch (error) {
			if (active && containers === null) {
				list.replaceChildren(h('p', { class: 'error' }, error.message));
			}
			return;
		}
		finally {
			asking = false;
		}
		if (active) {
			render();
		}
	}

	function render() {
		const statusById = new Map(ctx.state.instances.map((instance) => [instance.moduleId, instance]));
		const seen = new Set();
		for (const container of containers) {
			seen.add(container.containerId);
			let card = cards.get(container.containerId);
			if (!card) {
				card = createCard(container);
				cards.set(container.containerId, card);
				list.append(card.element);
			}
			setText(card.count, `${container.deploymentSize} module instance${container.deploymentSize === 1 ? '' : 's'}`);
			const rows = [...container.deployedModules].sort().map((moduleId) => {
				const instance = statusById.get(moduleId);
				const state = instance ? instance.deploymentStatus : 'deploying';
				const stream = instance ? instance.unitName : moduleId.split('.')[0];
				const rate = container.messageRates ? container.messageRates[moduleId] : undefined;
				let row = card.rows.get(moduleId);
				if (!row) {
					row = { status: h('span'), rate: h('td', { class: 'num rate' }) };
					row.tr = h('tr', { dataset: { module: moduleId } },
						h('td', { class: 'mono' }, h('a', { href: `#/streams/${encodeURIComponent(stream)}` }, moduleId)),
						h('td', {}, row.status), row.rate);
					card.rows.set(moduleId, row);
				}
				setText(row.status, state);
				setClass(row.status, `status status-${state}`);
				setText(row.rate, formatRate(typeof rate === 'number' ? rate : null));
				return row.tr;
			});
			for (const id of [...card.rows.keys()]) {
				if (!container.deployedModules.includes(id)) {
					card.rows.delete(id);
				}
			}
			if (rows.length !== card.body.children.length || rows.some((tr, i) => card.body.children[i] !== tr)) {
				card.body.replaceChildren(...rows);
			}
			card.table.hidden = rows.length === 0;
		}
		for (const [id, card] of cards) {
			if (!seen.has(id)) {
				card.element.remove();
				cards.delete(id);
			}
		}
		setText(summary, `${containers.length} container${containers.length === 1 ? '' : 's'}`);
	}

	function createCard(container) {
		const attributes = container.attributes || {};
		const count = h('span', { class: 'muted' });
		const body = h('tbody');
		const table = h('table', { class: 'instances' },
			h('thead', {}, h('tr', {}, h('th', {}, 'Module instance'), h('th', {}, 'Status'),
				h('th', { class: 'num' }, 'Rate'))), body);
		const custom = Object.entries(attributes)
			.filter(([key]) => !['id', 'host', 'ip', 'pid', 'groups'].includes(key))
			.map(([key, value]) => `${key}=${value}`).join(', ');
		const element = h('article', { class: 'card container', dataset: { container: container.containerId } },
			h('h2', { class: 'mono' }, container.containerId),
			h('p', { class: 'attributes' },
				h('span', {}, `host ${attributes.host || '?'} (${attributes.ip || '?'})`),
				h('span', {}, `pid ${attributes.pid || '?'}`),
				h('span', {}, `groups ${container.groups || 'none'}`),
				custom && h('span', {}, custom), count),
			table);
		return { element, count, body, table, rows: new Map() };
	}

	update();
	return {
		update,
		unmount() {
			active = false;
		},
	};
}
