package io.xd.admin.audit;

import java.security.Principal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.ErrorResponse;

import io.xd.admin.AdminException;
import io.xd.admin.cluster.ClusterStore;
import io.xd.core.cluster.AuditRecord;
import io.xd.core.cluster.ClusterPaths;

/**
 * Who changed what through the REST API, and who tried: each audited request is one {@link AuditRecord} in ZooKeeper
 * ({@link ClusterPaths#AUDIT}), kept by every admin of the cluster, the oldest removed beyond {@code maxRecords}.
 * <p>
 * A controller runs its action inside {@link #record}: the action says its target and details on the
 * {@link Entry} it is given (masked there by the {@link AuditMasker}), and the record is written once the action
 * returned or threw, with its outcome. Writing never fails the action: when ZooKeeper refuses, the record is logged
 * as a warning instead. Thread-safe.
 */
public final class AuditTrail {

	/** How many records are kept unless configured ({@code xd.admin.audit.maxRecords}). */
	public static final int DEFAULT_MAX_RECORDS = 10_000;

	/**
	 * The most records that may be kept: removing the oldest lists the records' names, and that listing must fit in one
	 * ZooKeeper packet ({@code jute.maxbuffer}, 1 MiB by default).
	 */
	public static final int MAX_RECORDS_LIMIT = 50_000;

	/** The user of a request that carried no authentication (security off). */
	public static final String ANONYMOUS = "anonymous";

	/** The longest detail value or target kept; longer ones are cut, saying how long they were. */
	static final int MAX_VALUE_LENGTH = 4096;

	/** The longest reason kept. */
	static final int MAX_REASON_LENGTH = 300;

	private static final Logger logger = LoggerFactory.getLogger(AuditTrail.class);

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSX")
		.withZone(ZoneOffset.UTC);

	private final ClusterStore store;

	private final AuditMasker masker;

	private final int maxRecords;

	private final Clock clock;

	/** The records read so far by node name; a record never changes once written. Guarded by this. */
	private final NavigableMap<String, AuditRecord> cache = new TreeMap<>();

	/**
	 * @param maxRecords how many records to keep, from 1 to {@value #MAX_RECORDS_LIMIT}
	 * @throws IllegalArgumentException when {@code maxRecords} is out of range
	 */
	public AuditTrail(ClusterStore store, AuditMasker masker, int maxRecords, Clock clock) {
		if (maxRecords < 1 || maxRecords > MAX_RECORDS_LIMIT) {
			throw new IllegalArgumentException("xd.admin.audit.maxRecords must be from 1 to " + MAX_RECORDS_LIMIT
					+ ", not " + maxRecords);
		}
		this.store = store;
		this.masker = masker;
		this.maxRecords = maxRecords;
		this.clock = clock;
	}

	/**
	 * Runs an audited action and records it: a success when it returns, a failure with the status and reason of
	 * what it threw (which is then rethrown as it is).
	 * @param user the request's authenticated user; null when security is off
	 * @param target the stream or {@code type:name} acted on; the action may set it later on its entry
	 * @return what the action returned
	 */
	public <T, E extends Exception> T record(Principal user, AuditAction action, String target, Audited<T, E> work)
			throws E {
		Entry entry = new Entry(this.masker).target(target);
		T result;
		try {
			result = work.run(entry);
		}
		catch (Exception ex) {
			write(user, action, entry, ex);
			throw ex;
		}
		write(user, action, entry, null);
		return result;
	}

	/**
	 * The records, newest first, that match every filter given.
	 * @param user only this user's; null or blank for all
	 * @param actionPrefix only actions that start with this, such as {@code stream.} or {@code module.delete}
	 * @param target only this stream or {@code type:name}
	 * @throws AdminException 503 when ZooKeeper cannot be read
	 */
	public List<AuditRecord> records(String user, String actionPrefix, String target) {
		return allNewestFirst().stream()
			.filter(record -> isBlank(user) || user.equals(record.user()))
			.filter(record -> isBlank(actionPrefix) || record.action().startsWith(actionPrefix))
			.filter(record -> isBlank(target) || target.equals(record.target()))
			.toList();
	}

	/** Every record, newest first: those not read before are read from ZooKeeper, the removed ones forgotten. */
	private synchronized List<AuditRecord> allNewestFirst() {
		List<String> nodes = this.store.auditRecordNodes();
		this.cache.keySet().retainAll(new HashSet<>(nodes));
		for (String node : nodes) {
			if (!this.cache.containsKey(node)) {
				this.store.findAuditRecord(node).ifPresent(record -> this.cache.put(node, record));
			}
		}
		return List.copyOf(this.cache.descendingMap().values());
	}

	private void write(Principal user, AuditAction action, Entry entry, Exception failure) {
		AuditRecord record = new AuditRecord(time(this.clock.instant()),
				(user == null) ? ANONYMOUS : user.getName(), action.label(), entry.target,
				(failure == null) ? AuditRecord.SUCCESS : AuditRecord.FAILURE,
				(failure == null) ? null : status(failure), (failure == null) ? null : reason(failure), entry.details);
		try {
			this.store.addAuditRecord(record);
		}
		catch (RuntimeException ex) {
			logger.warn("Could not write the audit record {}: {}", record, ex.getMessage());
			return;
		}
		try {
			if (this.store.auditRecordCount() > this.maxRecords) {
				beyondBound(this.store.auditRecordNodes(), this.maxRecords).forEach(this.store::deleteAuditRecord);
			}
		}
		catch (RuntimeException ex) {
			logger.warn("Could not remove the audit records beyond the newest {}: {}", this.maxRecords,
					ex.getMessage());
		}
	}

	/** ISO-8601 in UTC, always with milliseconds, so that every time has the same width and sorts as text. */
	static String time(Instant instant) {
		return TIME.format(instant);
	}

	/**
	 * The records to remove so that {@code maxRecords} are left: the oldest.
	 * @param nodesOldestFirst the records' node names, oldest first (as their sequence numbers sort)
	 */
	static List<String> beyondBound(List<String> nodesOldestFirst, int maxRecords) {
		return nodesOldestFirst.subList(0, Math.max(0, nodesOldestFirst.size() - maxRecords));
	}

	/** The status the REST API answers a request that threw this with (see the web layer's error handling). */
	static int status(Throwable failure) {
		if (failure instanceof AdminException admin) {
			return admin.status();
		}
		if (failure instanceof ErrorResponse response) {
			return response.getStatusCode().value();
		}
		return (failure instanceof IllegalArgumentException) ? 400 : 500;
	}

	/** The failure's first line (a DSL error's is its code, position and sentence), masked and cut short. */
	private String reason(Throwable failure) {
		String message = failure.getMessage();
		if (message == null || message.isBlank()) {
			return failure.getClass().getSimpleName();
		}
		String firstLine = message.strip().lines().findFirst().orElse("");
		return cut(this.masker.maskText(firstLine), MAX_REASON_LENGTH);
	}

	static String cut(String value, int maxLength) {
		if (value == null || value.length() <= maxLength) {
			return value;
		}
		return value.substring(0, maxLength) + "... (" + value.length() + " characters)";
	}

	private static boolean isBlank(String value) {
		return value == null || value.isBlank();
	}

	/**
	 * An audited action: what a controller does for one request.
	 * @param <T> what it returns
	 * @param <E> the checked exception it may throw
	 */
	@FunctionalInterface
	public interface Audited<T, E extends Exception> {

		/** Does the action, saying on {@code entry} what it acts on as soon as it knows. */
		T run(Entry entry) throws E;
	}

	/** What the record of one request will say besides who, when and how it ended. Used by one thread. */
	public static final class Entry {

		private final AuditMasker masker;

		private final Map<String, String> details = new LinkedHashMap<>();

		private String target;

		Entry(AuditMasker masker) {
			this.masker = masker;
		}

		/** The stream, {@code *} for all, or {@code type:name}; null or blank when not known. */
		public Entry target(String target) {
			this.target = (target == null || target.isBlank()) ? null : cut(target.strip(), MAX_VALUE_LENGTH);
			return this;
		}

		/** A detail, masked as text; a null value is left out. */
		public Entry detail(String name, Object value) {
			return put(name, (value == null) ? null : this.masker.maskText(String.valueOf(value)));
		}

		/** The stream definition, its secret options masked; null is left out. */
		public Entry definition(String definition) {
			return put("definition", (definition == null) ? null : this.masker.maskDefinition(definition));
		}

		/**
		 * The deployment properties' text, secret values masked (for the stream of the {@link #target}, which should be
		 * said first); null or blank is left out.
		 */
		public Entry properties(String properties) {
			return put("properties",
					(properties == null || properties.isBlank()) ? null
							: this.masker.maskProperties(properties, this.target));
		}

		/** The details said so far, in the order said. */
		Map<String, String> details() {
			return Collections.unmodifiableMap(this.details);
		}

		private Entry put(String name, String masked) {
			if (masked != null) {
				this.details.put(name, cut(masked, MAX_VALUE_LENGTH));
			}
			return this;
		}
	}
}
