/**
 * A stream drawn as SVG, left to right: its source channel (a named queue or topic, or a tap of another stream),
 * its modules as boxes, its sink channel, joined by arrows. Each box shows the module's label and its live message
 * rate; its colour is the state of its instances. An arrow after a module whose output the admin binds directly
 * (in the JVM, no broker between the two) is drawn as a direct hop and says so. Built once per definition; update() changes only texts and
 * classes, so that polling a hundred streams every two seconds stays cheap.
 */
import { s, setClass, setText } from './dom.js';
import { formatRate } from './format.js';

const SIZES = {
	compact: { font: 11, charWidth: 6.7, height: 34, padding: 8, gap: 22, margin: 3 },
	full: { font: 13, charWidth: 7.9, height: 50, padding: 12, gap: 40, margin: 6 },
};

/**
 * @param parsed the result of parseDefinition
 * @param size 'compact' (a row of the stream list) or 'full' (a stream's page)
 * @returns {{element: SVGSVGElement, update: function(Map<string, {rate, instances, state}>)}}
 */
export function streamGraph(parsed, size = 'compact') {
	const metrics = SIZES[size];
	const nodes = [];
	if (parsed.source) {
		nodes.push(channelNode(parsed.source, metrics));
	}
	for (const module of parsed.modules) {
		nodes.push(moduleNode(module, metrics));
	}
	if (parsed.sink) {
		nodes.push(channelNode(parsed.sink, metrics));
	}
	const svg = s('svg', { class: `graph graph-${size}`, role: 'img' });
	let x = metrics.margin;
	const y = metrics.margin;
	const hops = new Map();
	nodes.forEach((node, i) => {
		if (i > 0) {
			const hop = arrow(x, y + metrics.height / 2, metrics.gap);
			if (nodes[i - 1].label !== undefined) {
				hops.set(nodes[i - 1].label, hop);
			}
			svg.append(hop.group);
			x += metrics.gap;
		}
		node.group.setAttribute('transform', `translate(${x},${y})`);
		svg.append(node.group);
		x += node.width;
	});
	const width = Math.ceil(x + metrics.margin);
	const height = metrics.height + 2 * metrics.margin;
	svg.setAttribute('width', width);
	svg.setAttribute('height', height);
	svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
	svg.setAttribute('aria-label', describe(parsed));
	const boxes = new Map(nodes.filter((node) => node.label !== undefined).map((node) => [node.label, node]));
	return {
		element: svg,
		update(byLabel) {
			for (const [label, node] of boxes) {
				const runtime = byLabel ? byLabel.get(label) : undefined;
				const instances = runtime ? runtime.instances : 0;
				const text = instances === 0 ? 'not running'
					: formatRate(runtime.rate) + (instances > 1 ? ` ×${instances}` : '')
						+ (runtime.errorRate > 0 ? ` ✗${formatRate(runtime.errorRate)}` : '');
				setText(node.rate, text);
				setClass(node.group, `module state-${runtime ? runtime.state : 'none'}`);
				const hop = hops.get(label);
				if (hop) {
					const direct = Boolean(runtime && runtime.direct);
					setClass(hop.group, direct ? 'arrow direct' : 'arrow');
					setText(hop.title, direct ? 'direct binding: the next module is called in the same thread, '
						+ 'no broker between them' : 'through the message bus');
				}
			}
		},
	};
}

function moduleNode(module, metrics) {
	const title = module.label === module.name ? module.label : `${module.label}: ${module.name}`;
	const width = Math.max(title.length, 11) * metrics.charWidth + 2 * metrics.padding;
	const rate = s('text', { x: width / 2, y: metrics.height * 0.78, class: 'rate', 'font-size': metrics.font - 1 },
		'not running');
	const options = module.options.map(([name, value]) => ` --${name}=${value}`).join('');
	const group = s('g', { class: 'module state-none', 'data-label': module.label },
		s('title', {}, `${module.name}${options}`),
		s('rect', { width, height: metrics.height, rx: 4 }),
		s('text', { x: width / 2, y: metrics.height * 0.42, class: 'label', 'font-size': metrics.font }, title),
		rate);
	return { group, width, label: module.label, rate };
}

function channelNode(channel, metrics) {
	const text = channel.text;
	const width = text.length * metrics.charWidth + 2 * metrics.padding;
	const height = metrics.height * 0.7;
	const top = (metrics.height - height) / 2;
	const shape = s('g', { class: `channel channel-${channel.kind}` },
		s('title', {}, channel.kind === 'tap' ? `a copy of what ${channel.label || 'the first module'} of stream `
			+ `${channel.stream} sends` : `${channel.kind} ${channel.name}`),
		s('rect', { y: top, width, height, rx: height / 2 }),
		s('text', { x: width / 2, y: metrics.height / 2 + metrics.font * 0.35, 'font-size': metrics.font - 1 },
			text));
	// a tap leads to the stream it reads
	const group = channel.kind === 'tap' ? s('a', { href: `#/streams/${encodeURIComponent(channel.stream)}` }, shape)
		: shape;
	return { group, width };
}

function arrow(x, y, length) {
	const head = 6;
	const title = s('title', {}, 'through the message bus');
	const group = s('g', { class: 'arrow' }, title,
		s('line', { x1: x + 2, y1: y, x2: x + length - head - 1, y2: y }),
		s('polygon', { points: `${x + length - 1},${y} ${x + length - head - 1},${y - head / 2} `
			+ `${x + length - head - 1},${y + head / 2}` }));
	return { group, title };
}

function describe(parsed) {
	const parts = [];
	if (parsed.source) {
		parts.push(parsed.source.text);
	}
	parts.push(...parsed.modules.map((module) => module.label));
	if (parsed.sink) {
		parts.push(parsed.sink.text);
	}
	return parts.join(' → ');
}
