/**
 * What a user may do to a stream, as API calls, and the small controls that run them: each disables its button
 * while the call is under way, reports the outcome as a toast and refreshes the page's data at once.
 */
import { api, path } from './api.js';
import { h } from './dom.js';

export const calls = {
	deploy: (name, properties) => api.post(path`/streams/deployments/${name}`, { properties }),
	update: (name, properties) => api.post(path`/streams/deployments/update/${name}`, { properties }),
	scale: (name, label, count) => api.post(path`/streams/deployments/scale/${name}/${label}/instances/${count}`),
	rollback: (name, version) => api.post(path`/streams/deployments/rollback/${name}/${version}`),
	history: (name) => api.get(path`/streams/deployments/history/${name}`),
	undeploy: (name) => api.delete(path`/streams/deployments/${name}`),
	destroy: (name) => api.delete(path`/streams/definitions/${name}`),
};

/**
 * Runs a call for a button: disabled meanwhile; a toast says what came of it (the success text, then the server's
 * message when it sent one; null: the server's message alone); then the data is polled again.
 */
export async function run(ctx, button, call, success) {
	if (button) {
		button.disabled = true;
	}
	try {
		const answer = await call();
		const said = answer && typeof answer.message === 'string' ? answer.message : null;
		ctx.toast(success === null ? (said || 'Done') : (said ? `${success}: ${said}` : success), 'ok');
		return answer;
	}
	catch (error) {
		ctx.toast(error.message, 'error');
		return undefined;
	}
	finally {
		if (button) {
			button.disabled = false;
		}
		ctx.refresh();
	}
}

/** A button that asks "sure?" in place (no browser dialog) before it runs onConfirm. */
export function confirmButton(text, question, onConfirm, className = 'danger') {
	const holder = h('span', { class: 'confirm' });
	const start = h('button', { type: 'button', class: className, onclick: ask }, text);
	holder.append(start);
	function ask() {
		const yes = h('button', { type: 'button', class: className, onclick: () => onConfirm(yes) }, 'Yes');
		const no = h('button', { type: 'button', onclick: () => holder.replaceChildren(start) }, 'No');
		holder.replaceChildren(h('span', { class: 'question' }, question), yes, no);
	}
	return holder;
}

/** The buttons of a stream's row in the list: deploy or undeploy, and destroy, as the user's roles allow. */
export function rowActions(ctx, stream) {
	const buttons = [];
	if (ctx.can('DEPLOY')) {
		if (stream.status === 'undeployed') {
			const deploy = h('button', { type: 'button', class: 'primary', onclick: () => run(ctx, deploy,
				() => calls.deploy(stream.name, ''), `Deploying '${stream.name}'`) }, 'Deploy');
			buttons.push(deploy);
		}
		else {
			const undeploy = h('button', { type: 'button', onclick: () => run(ctx, undeploy,
				() => calls.undeploy(stream.name), null) }, 'Undeploy');
			buttons.push(undeploy);
		}
	}
	if (ctx.can('DESTROY')) {
		buttons.push(confirmButton('Destroy', `Destroy '${stream.name}'?`, (button) => run(ctx, button,
			() => calls.destroy(stream.name), null)));
	}
	return buttons;
}
