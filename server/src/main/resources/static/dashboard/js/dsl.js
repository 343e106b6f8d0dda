/**
 * Reads the shape of a stream definition for drawing it: an optional source channel, the modules with their labels
 * and options, an optional sink channel. The admin has checked the definition when it was created, so this reads
 * valid definitions only and does not report errors (see docs/dsl.md for the grammar).
 */

/**
 * @returns {{name: string|null, source: Channel|null, modules: Module[], sink: Channel|null}} where a Module is
 *     {label, name, options: [[name, value]], implicit} and a Channel is {kind: 'queue'|'topic'|'tap', text,
 *     name, stream, label}
 */
export function parseDefinition(text) {
	let definition = (text || '').trim();
	let name = null;
	const prefix = /^([\p{L}_$][\p{L}\p{N}_$-]*)\s*=\s*/u.exec(definition);
	if (prefix) {
		name = prefix[1];
		definition = definition.slice(prefix[0].length);
	}
	const { parts, separators } = split(definition);
	let first = 0;
	let last = parts.length - 1;
	let source = null;
	let sink = null;
	if (separators[0] === '>' && isChannel(parts[0])) {
		source = parseChannel(parts[0]);
		first = 1;
	}
	if (separators.length > 0 && separators[separators.length - 1] === '>' && last >= first && isChannel(parts[last])) {
		sink = parseChannel(parts[last]);
		last--;
	}
	const modules = parts.slice(first, last + 1).filter((part) => part.length > 0).map(parseModule);
	if (modules.length === 0 && source && sink) {
		modules.push({ label: 'bridge', name: 'bridge', options: [], implicit: true });
	}
	return { name, source, modules, sink };
}

/** Splits at '|' and '>' outside quotes; a doubled quote inside a quoted value toggles twice and stays inside. */
function split(definition) {
	const parts = [];
	const separators = [];
	let quote = null;
	let start = 0;
	for (let i = 0; i < definition.length; i++) {
		const c = definition[i];
		if (quote) {
			if (c === quote) {
				quote = null;
			}
		}
		else if (c === '\'' || c === '"') {
			quote = c;
		}
		else if (c === '|' || c === '>') {
			parts.push(definition.slice(start, i).trim());
			separators.push(c);
			start = i + 1;
		}
	}
	parts.push(definition.slice(start).trim());
	return { parts, separators };
}

function isChannel(text) {
	return /^(queue|topic):\S+$/.test(text) || /^tap:\S+$/.test(text);
}

function parseChannel(text) {
	if (text.startsWith('tap:stream:')) {
		const reference = text.slice('tap:stream:'.length);
		const dot = reference.indexOf('.');
		return {
			kind: 'tap', text,
			stream: dot < 0 ? reference : reference.slice(0, dot),
			label: dot < 0 ? null : reference.slice(dot + 1),
		};
	}
	const named = /^(?:tap:)?(queue|topic):(.+)$/.exec(text);
	return named ? { kind: named[1], text, name: named[2] } : { kind: 'queue', text, name: text };
}

const OPTION = /--([\w$.-]+)=('(?:[^']|'')*'|"(?:[^"]|"")*"|\S+)/g;

function parseModule(text) {
	let rest = text;
	let label = null;
	const labelled = /^([A-Za-z0-9_][A-Za-z0-9_$-]*):\s*/.exec(rest);
	if (labelled) {
		label = labelled[1];
		rest = rest.slice(labelled[0].length);
	}
	const name = rest.split(/\s+/)[0];
	const options = [...rest.matchAll(OPTION)].map((match) => [match[1], match[2]]);
	return { label: label || name, name, options, implicit: false };
}
