/**
 * What one poll brings, indexed for the views: the module instances of /runtime/modules grouped by stream, then by
 * label, with summed rates, error rates and failure counts and a state per label ('degraded': every instance runs,
 * and some failed on messages over the last measuring interval), and whether the hop after the module is direct.
 */

/**
 * @param instances the content of GET /runtime/modules
 * @returns {Map<string, {instances: object[], byLabel: Map<string, {rate, errorRate, errors, deadLetters, instances,
 *     state, direct}>}>} by stream name
 */
export function indexRuntime(instances) {
	const byStream = new Map();
	for (const instance of instances) {
		const stream = instance.unitName;
		let entry = byStream.get(stream);
		if (!entry) {
			entry = { instances: [], byLabel: new Map() };
			byStream.set(stream, entry);
		}
		entry.instances.push(instance);
		const label = labelOf(instance);
		let summary = entry.byLabel.get(label);
		if (!summary) {
			summary = { rate: null, errorRate: null, errors: 0, deadLetters: 0, instances: 0, deployed: 0, failed: 0,
				state: 'deploying', direct: false };
			entry.byLabel.set(label, summary);
		}
		summary.instances++;
		if (typeof instance.messageRate === 'number') {
			summary.rate = (summary.rate || 0) + instance.messageRate;
		}
		if (typeof instance.errorRate === 'number') {
			summary.errorRate = (summary.errorRate || 0) + instance.errorRate;
		}
		// the admin marks a pipe it binds directly (no broker between the two modules) on its producer
		const properties = instance.deploymentProperties || {};
		summary.direct = summary.direct || properties['producer.directBindingAllowed'] === 'true';
		summary.errors += instance.errors || 0;
		summary.deadLetters += instance.deadLetters || 0;
		if (instance.deploymentStatus === 'deployed') {
			summary.deployed++;
		}
		else if (instance.deploymentStatus === 'failed') {
			summary.failed++;
		}
		summary.state = summary.failed > 0 ? 'failed'
			: summary.deployed !== summary.instances ? 'deploying'
				: summary.errorRate > 0 ? 'degraded' : 'deployed';
	}
	return byStream;
}

/** The label in a module id {@code <stream>.<type>.<label>.<instance>}; stream names and labels hold no dot. */
export function labelOf(instance) {
	const parts = instance.moduleId.split('.');
	return parts.length >= 4 ? parts.slice(2, parts.length - 1).join('.') : instance.name;
}

/** The instance number at the end of a module id. */
export function instanceOf(instance) {
	const parts = instance.moduleId.split('.');
	return Number(parts[parts.length - 1]);
}
