package io.xd.admin.modules;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import io.xd.modules.internal.JarLimits;

/**
 * Limits on custom module jars ({@code xd.modules.*}), checked when a jar is uploaded or registered.
 */
@ConfigurationProperties("xd.modules")
public class ModulesProperties {

	/** The largest jar accepted. */
	private DataSize maxUploadSize = DataSize.ofMegabytes(64);

	/** The most bytes a jar's entries may expand to together; more is refused as a possible zip bomb. */
	private DataSize maxExpandedSize = DataSize.ofMegabytes(512);

	/** The most entries a jar may hold. */
	private int maxEntries = JarLimits.DEFAULT.maxEntries();

	/** The highest expansion ratio of an entry over 1 MB expanded; more is refused as a possible zip bomb. */
	private int maxExpansionRatio = JarLimits.DEFAULT.maxRatio();

	/** The limits as the jar checks take them. */
	public JarLimits jarLimits() {
		return new JarLimits(this.maxEntries, this.maxExpandedSize.toBytes(), this.maxExpansionRatio);
	}

	public DataSize getMaxUploadSize() {
		return this.maxUploadSize;
	}

	public void setMaxUploadSize(DataSize maxUploadSize) {
		this.maxUploadSize = maxUploadSize;
	}

	public DataSize getMaxExpandedSize() {
		return this.maxExpandedSize;
	}

	public void setMaxExpandedSize(DataSize maxExpandedSize) {
		this.maxExpandedSize = maxExpandedSize;
	}

	public int getMaxEntries() {
		return this.maxEntries;
	}

	public void setMaxEntries(int maxEntries) {
		this.maxEntries = maxEntries;
	}

	public int getMaxExpansionRatio() {
		return this.maxExpansionRatio;
	}

	public void setMaxExpansionRatio(int maxExpansionRatio) {
		this.maxExpansionRatio = maxExpansionRatio;
	}
}
