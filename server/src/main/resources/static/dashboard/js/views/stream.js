/**
 * One stream: its graph with live rates, its module instances, the streams that tap it, and what the user's roles
 * allow: deploy with properties, update properties, scale a module, undeploy, destroy, and roll back to a version
 * of its deployment history.
 */
import { calls, confirmButton, run } from '../actions.js';
import { h, setClass, setText } from '../dom.js';
import { parseDefinition } from '../dsl.js';
import { formatRate, formatTime, shortId } from '../format.js';
import { streamGraph } from '../graph.js';
import { instanceOf, labelOf } from '../model.js';

export function mount(main, ctx, name) {
	const status = h('span', { class: 'status', id: 'stream-status' });
	const definition = h('code', { class: 'definition', id: 'stream-definition' });
	const graphHolder = h('div', { class: 'graph-holder', id: 'stream-graph' });
	const missing = h('p', { class: 'error', hidden: true }, `There is no stream named '${name}'. `,
		h('a', { href: '#/streams' }, 'Back to the streams'));
	const deployment = h('div', { class: 'deployment' });
	const instancesBody = h('tbody');
	const instances = h('table', { class: 'instances', id: 'instances' },
		h('thead', {}, h('tr', {}, h('th', {}, 'Module instance'), h('th', {}, 'Container'), h('th', {}, 'Status'),
			h('th', { class: 'num' }, 'Rate'), h('th', { class: 'num' }, 'Errors'), h('th', { class: 'num' }, 'Dead letters'),
			h('th', {}, 'Error'))),
		instancesBody);
	const noInstances = h('p', { class: 'muted' }, 'No module instance runs.');
	const tappedBy = h('p', { class: 'tapped-by' });
	const historyBody = h('tbody');
	const historyNote = h('p', { class: 'muted', id: 'history-note' }, 'Loading…');
	const history = h('table', { class: 'history', id: 'history', hidden: true },
		h('thead', {}, h('tr', {}, h('th', { class: 'num' }, 'Version'), h('th', {}, 'Status'), h('th', {}, 'Time'),
			h('th', {}, 'Properties'), h('th', {}, 'Definition'), h('th', {}, ''))),
		historyBody);

	main.replaceChildren(h('section', { class: 'page stream-page', dataset: { stream: name } },
		h('p', { class: 'crumbs' }, h('a', { href: '#/streams' }, 'Streams'), ' / '),
		h('div', { class: 'toolbar' }, h('h1', {}, name), status, h('span', { class: 'spacer' }),
			ctx.can('DESTROY') && confirmButton('Destroy', `Destroy '${name}'?`, (button) => run(ctx, button,
				() => calls.destroy(name), null).then((answer) => {
				if (answer !== undefined) {
					ctx.navigate('#/streams');
				}
			}))),
		missing,
		h('div', { class: 'card' }, definition, graphHolder, tappedBy),
		deployment,
		h('h2', {}, 'Module instances'), instances, noInstances,
		h('h2', {}, 'Deployment history'), historyNote, history));

	let drawnDefinition = null;
	let graph = null;
	let labels = [];
	let deploymentFor = null;
	let lastStatus = null;
	const instanceRows = new Map();
	const forms = deploymentForms();

	function update() {
		const stream = ctx.state.streams.find((candidate) => candidate.name === name);
		missing.hidden = stream !== undefined || !ctx.state.loaded;
		if (!stream) {
			return;
		}
		setText(status, stream.status);
		setClass(status, `status status-${stream.status}`);
		if (drawnDefinition !== stream.definition) {
			setText(definition, stream.definition);
			const parsed = parseDefinition(stream.definition);
			graph = streamGraph(parsed, 'full');
			graphHolder.replaceChildren(graph.element);
			labels = parsed.modules.map((module) => module.label);
			forms.setLabels(labels);
			drawnDefinition = stream.definition;
		}
		const runtime = ctx.state.runtime.get(name);
		graph.update(runtime ? runtime.byLabel : null);
		forms.setCounts(runtime ? runtime.byLabel : null);
		updateInstances(runtime ? runtime.instances : []);
		updateTappedBy();
		const deployed = stream.status !== 'undeployed';
		if (deploymentFor !== deployed) {
			deployment.replaceChildren(...forms.render(deployed));
			deploymentFor = deployed;
		}
		if (lastStatus !== null && lastStatus !== stream.status) {
			loadHistory();
		}
		lastStatus = stream.status;
	}

	function updateInstances(list) {
		const sorted = [...list].sort((a, b) => labels.indexOf(labelOf(a)) - labels.indexOf(labelOf(b))
			|| instanceOf(a) - instanceOf(b));
		const seen = new Set();
		for (const instance of sorted) {
			seen.add(instance.moduleId);
			let row = instanceRows.get(instance.moduleId);
			if (!row) {
				row = {
					container: h('td', { class: 'mono' }), status: h('span'), rate: h('td', { class: 'num rate' }),
					errors: h('td', { class: 'num errors' }), deadLetters: h('td', { class: 'num dead-letters' }),
					error: h('td', { class: 'error-text' }),
				};
				row.tr = h('tr', { dataset: { module: instance.moduleId } }, h('td', { class: 'mono' }, instance.moduleId),
					row.container, h('td', {}, row.status), row.rate, row.errors, row.deadLetters, row.error);
				instanceRows.set(instance.moduleId, row);
			}
			setText(row.container, shortId(instance.containerId));
			row.container.title = instance.containerId;
			setText(row.status, instance.deploymentStatus);
			setClass(row.status, `status status-${instance.deploymentStatus}`);
			setText(row.rate, formatRate(instance.messageRate));
			const errors = instance.errors || 0;
			setText(row.errors, instance.errorRate > 0 ? `${errors} (${formatRate(instance.errorRate)})` : String(errors));
			setClass(row.errors, `num errors${errors > 0 ? ' error-text' : ''}`);
			setText(row.deadLetters, String(instance.deadLetters || 0));
			setClass(row.deadLetters, `num dead-letters${instance.deadLetters > 0 ? ' error-text' : ''}`);
			const last = instance.lastError;
			setText(row.error, instance.error || (last ? `${formatTime(last.time)}: ${last.reason}` : ''));
		}
		for (const [id, row] of instanceRows) {
			if (!seen.has(id)) {
				row.tr.remove();
				instanceRows.delete(id);
			}
		}
		const wanted = sorted.map((instance) => instanceRows.get(instance.moduleId).tr);
		if (wanted.some((tr, i) => instancesBody.children[i] !== tr) || instancesBody.children.length !== wanted.length) {
			instancesBody.replaceChildren(...wanted);
		}
		instances.hidden = sorted.length === 0;
		noInstances.hidden = sorted.length > 0;
	}

	function updateTappedBy() {
		const tappers = ctx.state.streams.filter((other) => {
			const source = parseDefinition(other.definition).source;
			return source && source.kind === 'tap' && source.stream === name;
		});
		const key = tappers.map((other) => other.name).join(',');
		if (tappedBy.dataset.key !== key) {
			tappedBy.dataset.key = key;
			const links = tappers.flatMap((other, i) => [i > 0 ? ', ' : '',
				h('a', { href: `#/streams/${encodeURIComponent(other.name)}` }, other.name)]);
			tappedBy.replaceChildren(...(tappers.length === 0 ? [] : ['Tapped by ', ...links]));
		}
	}

	/** The deployment forms; their inputs live as long as the page, so a poll never loses what is being typed. */
	function deploymentForms() {
		const properties = h('textarea', { id: 'deploy-properties', rows: 2, spellcheck: false,
			placeholder: 'module.*.count=1, module.log.criteria=groups.contains(\'east\')' });
		const updateProperties = h('textarea', { id: 'update-properties', rows: 2, spellcheck: false,
			placeholder: 'module.log.count=2' });
		const label = h('select', { id: 'scale-label' });
		const count = h('input', { id: 'scale-count', type: 'number', min: 0, max: 1000, step: 1, value: 1,
			required: true });
		let counts = null;
		label.addEventListener('change', () => {
			count.value = currentCount(label.value);
		});
		function currentCount(which) {
			const summary = counts ? counts.get(which) : undefined;
			return summary ? summary.instances : 0;
		}
		const deployButton = h('button', { type: 'submit', class: 'primary', id: 'deploy' }, 'Deploy');
		const deployForm = h('form', { class: 'card action', id: 'deploy-form' },
			h('h2', {}, 'Deploy'),
			h('label', { for: 'deploy-properties' }, 'Deployment properties (optional)'), properties, deployButton);
		deployForm.addEventListener('submit', (event) => {
			event.preventDefault();
			run(ctx, deployButton, () => calls.deploy(name, properties.value.trim()), `Deploying '${name}'`);
		});
		const updateButton = h('button', { type: 'submit', id: 'update' }, 'Update');
		const updateForm = h('form', { class: 'card action', id: 'update-form' },
			h('h2', {}, 'Update'),
			h('label', { for: 'update-properties' }, 'New deployment properties: only the modules they change restart'),
			updateProperties, updateButton);
		updateForm.addEventListener('submit', (event) => {
			event.preventDefault();
			run(ctx, updateButton, () => calls.update(name, updateProperties.value.trim()), `Updating '${name}'`)
				.then(loadHistory);
		});
		const scaleButton = h('button', { type: 'submit', id: 'scale' }, 'Scale');
		const scaleForm = h('form', { class: 'card action', id: 'scale-form' },
			h('h2', {}, 'Scale'),
			h('div', { class: 'inline' }, h('label', { for: 'scale-label' }, 'Module'), label,
				h('label', { for: 'scale-count' }, 'Instances'), count, scaleButton));
		scaleForm.addEventListener('submit', (event) => {
			event.preventDefault();
			const which = label.value;
			const n = Number(count.value);
			run(ctx, scaleButton, () => calls.scale(name, which, n), `Scaling '${which}' of '${name}' to ${n}`)
				.then(loadHistory);
		});
		const undeployButton = h('button', { type: 'button', id: 'undeploy', onclick: () => run(ctx, undeployButton,
			() => calls.undeploy(name), null) }, 'Undeploy');
		return {
			/** The properties of the latest version, as a start for the next deploy or update. */
			suggest(text) {
				for (const area of [properties, updateProperties]) {
					if (area.value === '' && document.activeElement !== area) {
						area.value = text;
					}
				}
			},
			setLabels(names) {
				const selected = label.value;
				label.replaceChildren(...names.map((one) => h('option', { value: one }, one)));
				if (names.includes(selected)) {
					label.value = selected;
				}
				count.value = currentCount(label.value);
			},
			setCounts(byLabel) {
				const first = counts === null;
				counts = byLabel;
				if (first && document.activeElement !== count) {
					count.value = currentCount(label.value);
				}
			},
			render(deployed) {
				if (!ctx.can('DEPLOY')) {
					return [];
				}
				if (!deployed) {
					return [deployForm];
				}
				count.value = currentCount(label.value);
				return [h('div', { class: 'actions-row' }, updateForm, scaleForm,
					h('div', { class: 'card action' }, h('h2', {}, 'Undeploy'),
						h('p', { class: 'muted' }, 'Stops every module; the definition stays.'), undeployButton))];
			},
		};
	}

	async function loadHistory() {
		let entries;
		try {
			entries = await calls.history(name);
		}
		catch (error) {
			history.hidden = true;
			historyNote.hidden = false;
			historyNote.textContent = error.status === 404 && error.logref !== 'NoSuchDefinitionException'
				? 'This server keeps no deployment history.' : `No history: ${error.message}`;
			return;
		}
		entries = Array.isArray(entries) ? [...entries].sort((a, b) => b.version - a.version) : [];
		historyNote.hidden = entries.length > 0;
		historyNote.textContent = 'Not deployed yet.';
		history.hidden = entries.length === 0;
		const latest = entries.length > 0 ? entries[0].version : null;
		if (entries.length > 0) {
			forms.suggest(propertiesText(entries[0].properties));
		}
		historyBody.replaceChildren(...entries.map((entry) => {
			const cells = [h('td', { class: 'num' }, String(entry.version)),
				h('td', {}, entry.status || ''), h('td', {}, formatTime(entry.time)),
				h('td', { class: 'mono' }, propertiesText(entry.properties)),
				h('td', { class: 'mono' }, entry.definition || '')];
			let action = '';
			if (ctx.can('DEPLOY') && entry.version !== latest) {
				const button = h('button', { type: 'button', class: 'rollback' }, `Roll back to ${entry.version}`);
				button.addEventListener('click', () => run(ctx, button, () => calls.rollback(name, entry.version),
					`Rolling '${name}' back to version ${entry.version}`).then(loadHistory));
				action = button;
			}
			return h('tr', { dataset: { version: String(entry.version) } }, ...cells, h('td', {}, action));
		}));
	}

	update();
	loadHistory();
	return { update };
}

/** Deployment properties as the user wrote them: the server may send them as text or as a map. */
function propertiesText(properties) {
	if (properties === null || properties === undefined) {
		return '';
	}
	if (typeof properties === 'string') {
		return properties;
	}
	return Object.entries(properties).map(([key, value]) => `${key}=${value}`).join(', ');
}
