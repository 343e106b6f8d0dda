package io.xd.admin.audit;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

import io.xd.admin.AdminException;
import io.xd.admin.cluster.ClusterStore;
import io.xd.admin.stream.SecretMasker;
import io.xd.modules.internal.ModuleRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class AuditTrailTests {

	/** A client never started: every ZooKeeper call fails at once, as when ZooKeeper refuses. */
	private final CuratorFramework unstarted = CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(1));

	@AfterEach
	void close() {
		this.unstarted.close();
	}

	private AuditTrail trail(int maxRecords) {
		return new AuditTrail(new ClusterStore(this.unstarted), masker(), maxRecords, Clock.systemUTC());
	}

	/** A masker that knows no module and no stream: secrets by their names only. */
	private static AuditMasker masker() {
		return new AuditMasker(new SecretMasker(new ModuleRegistry(List.of())), stream -> Optional.empty());
	}

	@Test
	void removesTheOldestBeyondTheBound() {
		List<String> nodes = List.of("r-0000000001", "r-0000000002", "r-0000000004", "r-0000000006", "r-0000000008");
		assertThat(AuditTrail.beyondBound(nodes, 3)).containsExactly("r-0000000001", "r-0000000002");
		assertThat(AuditTrail.beyondBound(nodes, 1)).containsExactlyElementsOf(nodes.subList(0, 4));
		assertThat(AuditTrail.beyondBound(nodes, 5)).isEmpty();
		assertThat(AuditTrail.beyondBound(nodes, 10_000)).isEmpty();
		assertThat(AuditTrail.beyondBound(List.of(), 1)).isEmpty();
	}

	@Test
	void acceptsABoundFromOneToFiftyThousand() {
		assertThat(trail(1)).isNotNull();
		assertThat(trail(AuditTrail.MAX_RECORDS_LIMIT)).isNotNull();
		assertThatIllegalArgumentException().isThrownBy(() -> trail(0)).withMessageContaining("xd.admin.audit.maxRecords");
		assertThatIllegalArgumentException().isThrownBy(() -> trail(AuditTrail.MAX_RECORDS_LIMIT + 1));
	}

	@Test
	void recordsTheStatusTheRestApiAnswers() {
		assertThat(AuditTrail.status(new AdminException(409, "StreamAlreadyExistsException", "taken"))).isEqualTo(409);
		assertThat(AuditTrail.status(new IllegalArgumentException("bad"))).isEqualTo(400);
		assertThat(AuditTrail.status(new ResponseStatusException(HttpStatus.PAYLOAD_TOO_LARGE))).isEqualTo(413);
		assertThat(AuditTrail.status(new IOException("reset"))).isEqualTo(500);
	}

	@Test
	void writesTimesInUtcAlwaysWithMilliseconds() {
		assertThat(AuditTrail.time(Instant.parse("2026-11-23T10:15:30Z"))).isEqualTo("2026-11-23T10:15:30.000Z");
		assertThat(AuditTrail.time(Instant.parse("2026-11-23T10:15:30.123456Z"))).isEqualTo("2026-11-23T10:15:30.123Z");
	}

	@Test
	void cutsLongValuesSayingHowLongTheyWere() {
		assertThat(AuditTrail.cut("abcdef", 6)).isEqualTo("abcdef");
		assertThat(AuditTrail.cut("abcdefgh", 6)).isEqualTo("abcdef... (8 characters)");
		assertThat(AuditTrail.cut(null, 6)).isNull();
	}

	@Test
	void neverFailsTheActionWhenZooKeeperRefusesTheRecord() {
		AuditTrail trail = trail(10);
		String created = trail.record(null, AuditAction.STREAM_CREATE, "s1", ignored -> "created");
		assertThat(created).isEqualTo("created");
		AdminException refused = AdminException.streamExists("s1");
		assertThatThrownBy(() -> trail.record(null, AuditAction.STREAM_CREATE, "s1", ignored -> {
			throw refused;
		})).isSameAs(refused);
		IOException io = new IOException("reset");
		assertThatThrownBy(() -> trail.record(null, AuditAction.MODULE_UPLOAD, "sink:x", ignored -> {
			throw io;
		})).isSameAs(io);
	}

	@Test
	void masksWhatTheEntrySays() {
		AuditTrail.Entry audited = new AuditTrail.Entry(masker()).target("s1")
			.definition("time | jdbc --password=hunter2")
			.properties("app.jdbc.password=s3cret,module.jdbc.count=2")
			.detail("uri", "maven://g:a:1?token=t0k")
			.detail("absent", null)
			.properties(" ");
		assertThat(audited.details()).containsExactly(entry("definition", "time | jdbc --password=******"),
				entry("properties", "app.jdbc.password=******,module.jdbc.count=2"),
				entry("uri", "maven://g:a:1?token=******"));
	}
}
