package io.xd.admin.audit;

/** What an audit record says was asked, as its {@code action} field names it ({@link #label()}). */
public enum AuditAction {

	/** {@code POST /streams/definitions}, deploying too when asked. */
	STREAM_CREATE("stream.create"),

	/** {@code POST /streams/deployments/{name}}. */
	STREAM_DEPLOY("stream.deploy"),

	/** {@code POST /streams/deployments/update/{name}}. */
	STREAM_UPDATE("stream.update"),

	/** {@code POST /streams/deployments/scale/{stream}/{label}/instances/{count}}. */
	STREAM_SCALE("stream.scale"),

	/** {@code POST /streams/deployments/rollback/{name}/{version}}. */
	STREAM_ROLLBACK("stream.rollback"),

	/** {@code DELETE /streams/deployments/{name}}. */
	STREAM_UNDEPLOY("stream.undeploy"),

	/** {@code DELETE /streams/deployments}. */
	STREAM_UNDEPLOY_ALL("stream.undeploy-all"),

	/** {@code DELETE /streams/definitions/{name}}. */
	STREAM_DESTROY("stream.destroy"),

	/** {@code DELETE /streams/definitions}. */
	STREAM_DESTROY_ALL("stream.destroy-all"),

	/** {@code POST /modules/{type}/{name}} with a jar as the body. */
	MODULE_UPLOAD("module.upload"),

	/** {@code POST /modules/{type}/{name}} with Maven coordinates. */
	MODULE_REGISTER("module.register"),

	/** {@code DELETE /modules/{type}/{name}}. */
	MODULE_DELETE("module.delete"),

	/** {@code DELETE /metrics/{kind}/{name}}: a counter, gauge... and what it counted; the target is {@code kind:name}. */
	METRIC_DELETE("metric.delete");

	private final String label;

	AuditAction(String label) {
		this.label = label;
	}

	/** The action's name in audit records and their filters, such as {@code stream.deploy}. */
	public String label() {
		return this.label;
	}
}
