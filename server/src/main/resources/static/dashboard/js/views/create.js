/**
 * Create a stream from a DSL text. A definition the parser refuses is shown with the parser's code and sentence,
 * and a caret under the character at the error's position (0-based, as the server reports it); other refusals
 * (an unknown module, a bad option) show the server's message.
 */
import { api } from '../api.js';
import { h } from '../dom.js';

export function mount(main, ctx) {
	const name = h('input', { id: 'create-name', name: 'name', placeholder: 'ticktock', autocomplete: 'off',
		spellcheck: false });
	const definition = h('textarea', { id: 'create-definition', name: 'definition', rows: 3, spellcheck: false,
		required: true, placeholder: 'time --fixedDelay=1 | log' });
	const deploy = h('input', { id: 'create-deploy', type: 'checkbox' });
	const submit = h('button', { type: 'submit', class: 'primary', id: 'create-submit' }, 'Create');
	const problem = h('div', { class: 'dsl-problem', id: 'create-error', role: 'alert', hidden: true });
	const modules = h('div', { class: 'module-list' }, h('p', { class: 'muted' }, 'Loading modules…'));
	const form = h('form', { class: 'card create', id: 'create-form' },
		h('label', { for: 'create-name' }, 'Name (or write ', h('code', {}, 'name = '), 'before the definition)'), name,
		h('label', { for: 'create-definition' }, 'Definition'), definition,
		problem,
		h('div', { class: 'inline' },
			ctx.can('DEPLOY') && h('label', { class: 'check' }, deploy, ' Deploy it now'),
			h('span', { class: 'spacer' }), submit),
		h('p', { class: 'muted small' }, 'Modules are joined by ', h('code', {}, '|'), '; ',
			h('code', {}, 'queue:NAME'), ', ', h('code', {}, 'topic:NAME'), ' and ', h('code', {}, 'tap:stream:S.LABEL'),
			' are channels written with ', h('code', {}, '>'), '.'));
	main.replaceChildren(h('section', { class: 'page create-page' },
		h('div', { class: 'toolbar' }, h('h1', {}, 'Create a stream')),
		h('div', { class: 'two-columns' }, form, h('aside', { class: 'card' }, h('h2', {}, 'Modules'), modules))));

	definition.addEventListener('input', () => definition.classList.remove('invalid'));
	form.addEventListener('submit', (event) => {
		event.preventDefault();
		problem.hidden = true;
		definition.classList.remove('invalid');
		const text = definition.value;
		const fields = { definition: text, deploy: ctx.can('DEPLOY') && deploy.checked };
		if (name.value.trim()) {
			fields.name = name.value.trim();
		}
		submit.disabled = true;
		api.post('/streams/definitions', fields).then((created) => {
			ctx.toast(`Created stream '${created.name}'${fields.deploy ? ', deploying it' : ''}`, 'ok');
			ctx.refresh();
			ctx.navigate(`#/streams/${encodeURIComponent(created.name)}`);
		}, (error) => show(error, text)).finally(() => {
			submit.disabled = false;
		});
	});

	function show(error, text) {
		if (error.position !== null) {
			// the definition on one line, as the parser renders it, and the caret under the offending character
			const line = text.replace(/[\t\r\n]/g, ' ');
			problem.replaceChildren(
				h('p', {}, h('strong', { class: 'code' }, error.code || error.logref), ' ',
					h('span', { class: 'detail' }, error.detail || error.message),
					h('span', { class: 'muted' }, ` (position ${error.position})`)),
				h('pre', { class: 'caret-view' }, h('span', { class: 'line' }, line), '\n',
					h('span', { class: 'caret' }, `${' '.repeat(error.position)}^`)));
			definition.classList.add('invalid');
			definition.focus();
			definition.setSelectionRange(error.position, Math.min(error.position + 1, text.length));
		}
		else {
			problem.replaceChildren(h('p', {}, h('strong', { class: 'code' }, error.logref || 'Error'), ' ',
				h('span', { class: 'detail' }, error.message)));
		}
		problem.hidden = false;
	}

	api.get('/modules?size=1000').then((page) => {
		const byType = new Map();
		for (const module of page.content) {
			if (!byType.has(module.type)) {
				byType.set(module.type, []);
			}
			byType.get(module.type).push(module);
		}
		modules.replaceChildren(...['source', 'processor', 'sink'].filter((type) => byType.has(type)).map((type) =>
			h('div', {}, h('h3', {}, `${type}s`), h('ul', {}, byType.get(type).map((module) =>
				h('li', { title: module.description || '' }, h('code', {}, module.name)))))));
	}, (error) => modules.replaceChildren(h('p', { class: 'error' }, error.message)));

	definition.focus();
	return {};
}
