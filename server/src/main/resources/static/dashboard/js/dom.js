/**
 * A tiny DOM builder. Text is always set as text, never parsed as HTML: stream definitions, names and error
 * messages come from users.
 */

/** An element: h('a', {href: '#/x', class: 'y', onclick: fn}, 'text', childElement, [more children]). */
export function h(tag, attributes, ...children) {
	const element = document.createElement(tag);
	setAttributes(element, attributes);
	append(element, children);
	return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element, with the same arguments as h. */
export function s(tag, attributes, ...children) {
	const element = document.createElementNS(SVG_NS, tag);
	setAttributes(element, attributes);
	append(element, children);
	return element;
}

function setAttributes(element, attributes) {
	for (const [name, value] of Object.entries(attributes || {})) {
		if (value === undefined || value === null || value === false) {
			continue;
		}
		if (name.startsWith('on') && typeof value === 'function') {
			element.addEventListener(name.slice(2), value);
		}
		else if (name === 'dataset') {
			Object.assign(element.dataset, value);
		}
		else {
			element.setAttribute(name, value === true ? '' : String(value));
		}
	}
}

function append(element, children) {
	for (const child of children.flat(Infinity)) {
		if (child === undefined || child === null || child === false) {
			continue;
		}
		element.append(child instanceof Node ? child : document.createTextNode(String(child)));
	}
}

/** Sets an element's text only when it changed, so that a poll that changed nothing touches nothing. */
export function setText(element, text) {
	if (element.textContent !== text) {
		element.textContent = text;
	}
}

/** Sets an element's class list only when it changed. */
export function setClass(element, className) {
	if (element.getAttribute('class') !== className) {
		element.setAttribute('class', className);
	}
}
