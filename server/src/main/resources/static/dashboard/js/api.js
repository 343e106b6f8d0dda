/**
 * The admin's REST API as the dashboard calls it: same origin, HTTP Basic credentials from this tab's
 * sessionStorage on every call, errors as ApiError with the server's [{logref, message, ...}] body.
 */

const KEY = 'xd.dashboard.credentials';

/** Where the API is: the page is served at <base>/dashboard/, whatever the server's context path. */
const BASE = location.pathname.replace(/\/dashboard(\/.*)?$/, '');

/** A refused or failed call: the HTTP status and the first error object the server sent. */
export class ApiError extends Error {

	constructor(status, error) {
		super(error.message || `HTTP ${status}`);
		this.status = status;
		this.logref = error.logref || null;
		/** For a definition that does not parse: its code, 0-based position and the sentence alone. */
		this.code = error.code || null;
		this.position = (typeof error.position === 'number') ? error.position : null;
		this.detail = error.detail || null;
	}
}

/** The user this tab logged in as: {username, token} or null. */
export function credentials() {
	try {
		return JSON.parse(sessionStorage.getItem(KEY));
	}
	catch {
		return null;
	}
}

/** Remembers (in this tab only) the credentials to send; null forgets them. */
export function setCredentials(username, password) {
	if (username === null) {
		sessionStorage.removeItem(KEY);
		return;
	}
	sessionStorage.setItem(KEY, JSON.stringify({ username, token: basicToken(username, password) }));
}

/** Called with the ApiError of every 401, so that the page can ask for credentials again. */
let onUnauthorized = () => {};

export function whenUnauthorized(callback) {
	onUnauthorized = callback;
}

async function call(method, path, form, token) {
	const headers = { 'Accept': 'application/json', 'X-Requested-With': 'XMLHttpRequest' };
	const basic = (token === undefined) ? credentials()?.token : token;
	if (basic) {
		headers['Authorization'] = `Basic ${basic}`;
	}
	let body;
	if (form) {
		body = new URLSearchParams();
		for (const [name, value] of Object.entries(form)) {
			if (value !== undefined && value !== null) {
				body.append(name, String(value));
			}
		}
	}
	let response;
	try {
		// credentials: 'omit' keeps cookies out and stops the browser's own password dialog on a 401
		response = await fetch(BASE + path, { method, headers, body, credentials: 'omit', cache: 'no-store' });
	}
	catch (ex) {
		throw new ApiError(0, { logref: 'NetworkError', message: `The server cannot be reached (${ex.message})` });
	}
	const text = await response.text();
	let json = null;
	try {
		json = text ? JSON.parse(text) : null;
	}
	catch {
		json = null;
	}
	if (!response.ok) {
		const first = Array.isArray(json) && json.length > 0 ? json[0]
			: { logref: `HTTP${response.status}`, message: `${method} ${path} answered ${response.status}` };
		const error = new ApiError(response.status, first);
		if (response.status === 401 && token === undefined) {
			onUnauthorized(error);
		}
		throw error;
	}
	return json;
}

/** Path segments are encoded: a stream name may hold characters that mean something in a URL. */
export function path(strings, ...values) {
	return strings.reduce((out, text, i) => out + text + (i < values.length ? encodeURIComponent(values[i]) : ''), '');
}

export const api = {
	get: (url) => call('GET', url),
	post: (url, form) => call('POST', url, form || {}),
	delete: (url) => call('DELETE', url),

	/**
	 * Who the caller is and its roles (/security/info, open to anyone): with a Basic token, those credentials;
	 * with null, none; when omitted, the stored ones. A 401 here means the credentials were refused.
	 */
	securityInfo: (token) => call('GET', '/security/info', null, token),
};

/** A Basic token for a user name and password, without storing it. */
export function basicToken(username, password) {
	return btoa(String.fromCharCode(...new TextEncoder().encode(`${username}:${password}`)));
}
