/** The modules the admin knows, by type; a click shows a module's options with their types and defaults. */
import { api, path } from '../api.js';
import { h } from '../dom.js';

export function mount(main) {
	const body = h('tbody');
	const details = h('div', { class: 'card module-details', hidden: true });
	main.replaceChildren(h('section', { class: 'page modules-page' },
		h('div', { class: 'toolbar' }, h('h1', {}, 'Modules')),
		h('div', { class: 'two-columns' },
			h('table', { class: 'modules', id: 'modules' },
				h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Type'), h('th', {}, 'Description'))), body),
			details)));

	api.get('/modules?size=1000').then((page) => {
		const order = { source: 0, processor: 1, sink: 2 };
		const modules = [...page.content].sort((a, b) => (order[a.type] ?? 3) - (order[b.type] ?? 3)
			|| a.name.localeCompare(b.name));
		body.replaceChildren(...modules.map((module) => {
			const link = h('a', { href: '#/modules' }, module.name);
			link.addEventListener('click', (event) => {
				event.preventDefault();
				show(module);
			});
			return h('tr', { dataset: { module: `${module.type}:${module.name}` } }, h('td', { class: 'mono' }, link),
				h('td', {}, module.type), h('td', {}, module.description || ''));
		}));
	}, (error) => body.replaceChildren(h('tr', {}, h('td', { colspan: 3, class: 'error' }, error.message))));

	async function show(module) {
		details.hidden = false;
		details.replaceChildren(h('h2', {}, `${module.type} ${module.name}`), h('p', { class: 'muted' }, 'Loading…'));
		try {
			const info = await api.get(path`/modules/${module.type}/${module.name}`);
			const options = info.options || [];
			details.replaceChildren(h('h2', {}, `${module.type} ${module.name}`),
				h('p', {}, info.description || ''),
				options.length === 0 ? h('p', { class: 'muted' }, 'No options.')
					: h('table', { class: 'options' },
						h('thead', {}, h('tr', {}, h('th', {}, 'Option'), h('th', {}, 'Type'), h('th', {}, 'Default'),
							h('th', {}, 'Description'))),
						h('tbody', {}, options.map((option) => h('tr', {},
							h('td', { class: 'mono' }, `--${option.name}`), h('td', { class: 'mono' }, option.type || ''),
							h('td', { class: 'mono' }, option.defaultValue ?? ''), h('td', {}, option.description || ''))))));
		}
		catch (error) {
			details.replaceChildren(h('p', { class: 'error' }, error.message));
		}
	}
	return {};
}
