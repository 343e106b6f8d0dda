/**
 * The log-in form. The credentials are checked against /security/info and then kept in this tab's sessionStorage
 * (gone when the tab closes), from where every API call sends them as HTTP Basic.
 */
import { api, basicToken, setCredentials } from '../api.js';
import { h } from '../dom.js';

export function mount(main, { message, onLogin }) {
	const username = h('input', { id: 'login-username', name: 'username', autocomplete: 'username', required: true,
		autofocus: true });
	const password = h('input', { id: 'login-password', name: 'password', type: 'password',
		autocomplete: 'current-password', required: true });
	const problem = h('p', { class: 'error', id: 'login-error', role: 'alert', hidden: !message }, message || '');
	const submit = h('button', { type: 'submit', class: 'primary', id: 'login-submit' }, 'Log in');
	const form = h('form', { class: 'login', id: 'login-form' },
		h('h1', {}, 'Log in to XD'),
		h('label', { for: 'login-username' }, 'User name'), username,
		h('label', { for: 'login-password' }, 'Password'), password,
		problem, submit,
		h('p', { class: 'muted small' }, 'A singlenode without configured users has an administrator ',
			h('code', {}, 'admin'), ' whose password is in ', h('code', {}, '<data dir>/credentials.properties'),
			'.'));
	form.addEventListener('submit', async (event) => {
		event.preventDefault();
		submit.disabled = true;
		problem.hidden = true;
		try {
			const info = await api.securityInfo(basicToken(username.value, password.value));
			if (info.authenticationEnabled && !info.authenticated) {
				show('The server did not take these credentials.');
			}
			else if (!info.roles.includes('VIEW')) {
				show(`'${info.username}' may not view streams: the dashboard needs the role VIEW.`);
			}
			else {
				setCredentials(username.value, password.value);
				onLogin(info);
			}
		}
		catch (error) {
			show(error.status === 401 ? 'Wrong user name or password.' : error.message);
		}
		finally {
			submit.disabled = false;
		}
	});
	function show(text) {
		problem.textContent = text;
		problem.hidden = false;
		password.select();
	}
	main.replaceChildren(h('section', { class: 'page login-page' }, form));
	username.focus();
	return {};
}
