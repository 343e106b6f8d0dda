/**
 * The dashboard's shell: log-in, the roles of the user, the hash router (#/streams, #/streams/NAME, #/create,
 * #/containers, #/modules, #/analytics) and the poller. Every two seconds one request lists the streams and one lists the
 * module instances with their rates, whatever the number of streams; the page on show then updates in place.
 */
import { api, credentials, setCredentials, whenUnauthorized } from './api.js';
import { h } from './dom.js';
import { indexRuntime } from './model.js';
import * as analyticsView from './views/analytics.js';
import * as containersView from './views/containers.js';
import * as createView from './views/create.js';
import * as loginView from './views/login.js';
import * as modulesView from './views/modules.js';
import * as streamView from './views/stream.js';
import * as streamsView from './views/streams.js';

const POLL_INTERVAL_MS = 2000;

/** Enough for any page of the list endpoints a dashboard user watches; more is reported, not fetched. */
const MAX_STREAMS = 2000;

const MAX_INSTANCES = 20000;

const ROUTES = [
	{ pattern: /^#\/streams\/?$/, page: 'streams', view: streamsView },
	{ pattern: /^#\/streams\/([^/]+)$/, page: 'streams', view: streamView },
	{ pattern: /^#\/create$/, page: 'create', view: createView, role: 'CREATE' },
	{ pattern: /^#\/containers$/, page: 'containers', view: containersView },
	{ pattern: /^#\/modules$/, page: 'modules', view: modulesView },
	{ pattern: /^#\/analytics$/, page: 'analytics', view: analyticsView },
];

const main = document.getElementById('main');

const state = {
	/** /security/info of the user */
	info: null,
	/** the streams of the last poll (GET /streams/definitions), in name order */
	streams: [],
	streamsTotal: 0,
	/** the module instances of the last poll (GET /runtime/modules) */
	instances: [],
	/** those instances by stream and label, see model.js */
	runtime: new Map(),
	/** whether a poll has answered since the log-in */
	loaded: false,
};

const ctx = {
	state,
	can: (role) => state.info !== null && state.info.roles.includes(role),
	refresh: () => poll(),
	navigate: (hash) => {
		location.hash = hash;
	},
	toast,
};

let current = null;

let timer = null;

let inflight = null;

let again = false;

async function poll() {
	if (inflight) {
		again = true;
		return inflight;
	}
	clearTimeout(timer);
	const started = Date.now();
	inflight = (async () => {
		try {
			const [streams, instances] = await Promise.all([
				api.get(`/streams/definitions?size=${MAX_STREAMS}`),
				api.get(`/runtime/modules?size=${MAX_INSTANCES}`)]);
			state.streams = streams.content;
			state.streamsTotal = streams.page ? streams.page.totalElements : streams.content.length;
			state.instances = instances.content;
			state.runtime = indexRuntime(instances.content);
			state.loaded = true;
			connection(null);
		}
		catch (error) {
			if (error.status === 401) {
				return;
			}
			connection(error.message);
		}
		if (current && current.update) {
			current.update();
		}
	})();
	try {
		await inflight;
	}
	finally {
		inflight = null;
		if (state.info !== null) {
			if (again) {
				again = false;
				poll();
			}
			else {
				// every two seconds from the start of one poll to the next, however long the server took
				schedule(Math.max(0, POLL_INTERVAL_MS - (Date.now() - started)));
			}
		}
	}
}

/** While the tab is hidden nothing is fetched; it catches up as soon as it is shown. */
function schedule(delay = POLL_INTERVAL_MS) {
	clearTimeout(timer);
	timer = setTimeout(() => (document.hidden ? schedule() : poll()), delay);
}

document.addEventListener('visibilitychange', () => {
	if (!document.hidden && state.info !== null) {
		poll();
	}
});

function connection(problem) {
	const element = document.getElementById('connection');
	element.hidden = problem === null;
	element.textContent = problem === null ? '' : 'Not up to date: ' + problem;
}

function route() {
	if (state.info === null) {
		return;
	}
	const hash = location.hash || '#/streams';
	const match = ROUTES.map((candidate) => ({ candidate, groups: candidate.pattern.exec(hash) }))
		.find((found) => found.groups !== null);
	if (!match || (match.candidate.role && !ctx.can(match.candidate.role))) {
		location.replace('#/streams');
		return;
	}
	if (current && current.unmount) {
		current.unmount();
	}
	document.querySelectorAll('#nav a').forEach((link) => {
		link.classList.toggle('active', link.dataset.page === match.candidate.page);
	});
	let params;
	try {
		params = match.groups.slice(1).map(decodeURIComponent);
	}
	catch {
		// a hand-written address with a broken %-escape
		location.replace('#/streams');
		return;
	}
	current = match.candidate.view.mount(main, ctx, ...params);
	document.title = `XD dashboard · ${document.querySelector('h1')?.textContent || ''}`;
}

window.addEventListener('hashchange', route);

let toasts = 0;

/** Toasts: short messages about what an action did, errors kept longer; each numbered (data-seq) in order. */
function toast(text, kind = 'info') {
	const close = h('button', { type: 'button', class: 'link', 'aria-label': 'Close' }, '×');
	const element = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status',
		dataset: { seq: String(++toasts) } }, h('span', { class: 'text' }, text), close);
	close.addEventListener('click', () => element.remove());
	const holder = document.getElementById('toasts');
	holder.dataset.count = String(toasts);
	holder.append(element);
	setTimeout(() => element.remove(), kind === 'error' ? 15000 : 5000);
}

function enter(info) {
	state.info = info;
	const nav = document.getElementById('nav');
	nav.hidden = false;
	nav.querySelectorAll('[data-role]').forEach((link) => {
		link.hidden = !ctx.can(link.dataset.role);
	});
	const user = document.getElementById('user');
	user.hidden = false;
	user.textContent = info.authenticationEnabled ? `${info.username} · ${info.roles.join(', ')}`
		: 'security off';
	document.getElementById('logout').hidden = !info.authenticationEnabled;
	route();
	poll();
}

function leave(message) {
	setCredentials(null);
	state.info = null;
	state.loaded = false;
	clearTimeout(timer);
	if (current && current.unmount) {
		current.unmount();
	}
	current = null;
	document.getElementById('nav').hidden = true;
	document.getElementById('user').hidden = true;
	document.getElementById('logout').hidden = true;
	connection(null);
	document.title = 'XD dashboard · Log in';
	loginView.mount(main, { message, onLogin: enter });
}

document.getElementById('logout').addEventListener('click', () => leave(null));

whenUnauthorized(() => {
	if (state.info !== null) {
		leave('The server refused your credentials: log in again.');
	}
});

async function start() {
	let info;
	try {
		info = await api.securityInfo(credentials() ? undefined : null);
	}
	catch (error) {
		if (error.status !== 401) {
			main.replaceChildren(h('p', { class: 'error' }, `The admin server did not answer: ${error.message}`));
			return;
		}
		info = null;
	}
	if (info === null || (info.authenticationEnabled && !info.authenticated)) {
		leave(null);
		return;
	}
	enter(info);
}

start();
