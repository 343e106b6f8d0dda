package io.xd.modules.builtin.router;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageDeliveryException;
import org.springframework.messaging.support.MessageBuilder;

import io.xd.modules.Destinations;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.ModuleServices;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The router sink on the test kit, with in-memory destinations (on real buses: the container's RouterSink tests). */
class RouterSinkTests {

	@TempDir
	Path dir;

	/** Destinations as a map of in-memory queues, refusing what the container refuses: names without a prefix. */
	private final Map<String, List<Object>> sent = new ConcurrentHashMap<>();

	private final Destinations destinations = name -> {
		if (!name.startsWith("queue:") && !name.startsWith("topic:")) {
			throw new IllegalArgumentException("'" + name + "' is not a destination");
		}
		List<Object> queue = this.sent.computeIfAbsent(name, key -> new ArrayList<>());
		return (MessageChannel) (message, timeout) -> queue.add(message.getPayload());
	};

	private static Message<String> kind(String payload, String kind) {
		return MessageBuilder.withPayload(payload).setHeader("kind", kind).build();
	}

	private ModuleTestDriver router(Map<String, String> options) {
		return ModuleTestDriver.of(new RouterSink.Provider(), options, this.dir, HostAccess.defaults(this.dir),
				ModuleServices.NONE.with(Destinations.class, this.destinations));
	}

	@Test
	void sendsEachMessageWhereTheExpressionSaysABareNameBeingAQueue() {
		try (ModuleTestDriver driver = router(Map.of("expression",
				"payload.contains('urgent') ? 'queue:urgent' : 'normal'"))) {
			driver.send("urgent: fire").send("lunch").send("urgent: flood");
		}

		assertThat(this.sent).containsOnlyKeys("queue:urgent", "queue:normal");
		assertThat(this.sent.get("queue:urgent")).containsExactly("urgent: fire", "urgent: flood");
		assertThat(this.sent.get("queue:normal")).containsExactly("lunch");
	}

	@Test
	void theDefaultExpressionRoutesByThePayloadItself() {
		try (ModuleTestDriver driver = router(Map.of())) {
			driver.send("topic:news");
		}

		assertThat(this.sent).containsOnlyKeys("topic:news");
	}

	@Test
	void aCollectionOrArrayOfNamesSendsACopyToEach() {
		try (ModuleTestDriver driver = router(Map.of("expression", "payload.split(',')"))) {
			driver.send("queue:a,topic:b,queue:a");
		}
		try (ModuleTestDriver driver = router(Map.of("expression", "{'queue:c', 'd'}"))) {
			driver.send("x");
		}

		assertThat(this.sent.get("queue:a")).as("once: the names are a set").hasSize(1);
		assertThat(this.sent).containsOnlyKeys("queue:a", "topic:b", "queue:c", "queue:d");
	}

	@Test
	void destinationMappingsMapTheExpressionsValuesToDestinations() {
		try (ModuleTestDriver driver = router(Map.of("expression", "headers['kind']", "destinationMappings",
				"order=queue:orders, refund=topic:refunds,other=misc"))) {
			driver.send(kind("o1", "order"));
			driver.send(kind("r1", "refund"));
			driver.send(kind("m1", "other"));
		}

		assertThat(this.sent.get("queue:orders")).containsExactly("o1");
		assertThat(this.sent.get("topic:refunds")).containsExactly("r1");
		assertThat(this.sent.get("queue:misc")).containsExactly("m1");
	}

	@Test
	void aMessageWithoutDestinationIsAnErrorNamingTheValueUnlessThereIsADefaultOutputChannel() {
		try (ModuleTestDriver driver = router(Map.of("expression", "headers['kind']", "destinationMappings",
				"order=queue:orders"))) {
			Message<?> refund = kind("r1", "refund");
			assertThatExceptionOfType(MessageDeliveryException.class).isThrownBy(() -> driver.send(refund))
				.withMessageContaining("[refund], which resolve to no destination: it is not a key of "
						+ "destinationMappings [order]")
				.withMessageContaining("no --defaultOutputChannel is set")
				.satisfies(ex -> assertThat(ex.getFailedMessage()).isSameAs(refund));
			assertThatExceptionOfType(MessageDeliveryException.class)
				.isThrownBy(() -> driver.send("no kind header"))
				.withMessageContaining("gave no destination (null)");
		}
		try (ModuleTestDriver driver = router(Map.of("expression", "headers['kind']", "destinationMappings",
				"order=queue:orders", "defaultOutputChannel", "queue:unrouted"))) {
			driver.send(kind("r1", "refund")).send("none");
		}

		assertThat(this.sent).containsOnlyKeys("queue:unrouted");
		assertThat(this.sent.get("queue:unrouted")).containsExactly("r1", "none");
	}

	@Test
	void valuesThatResolveToNothingAreSkippedUnlessResolutionIsRequired() {
		try (ModuleTestDriver driver = router(Map.of("expression", "{'queue:a', 'no good!'}"))) {
			driver.send("x");
			assertThat(driver.<RouterSink>module().unresolved()).isEqualTo(1);
		}
		assertThat(this.sent).containsOnlyKeys("queue:a");

		try (ModuleTestDriver driver = router(Map.of("expression", "{'queue:b', 'no good!'}", "resolutionRequired",
				"true"))) {
			assertThatExceptionOfType(MessageDeliveryException.class).isThrownBy(() -> driver.send("x"))
				.withMessageContaining("the value 'no good!'")
				.withMessageContaining("resolutionRequired is true");
		}
		assertThat(this.sent).as("nothing sent before the error").containsOnlyKeys("queue:a");
	}

	@Test
	void refusesMappingsAndDefaultsThatAreNotDestinationsWhenTheStreamIsCreated() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> router(Map.of("destinationMappings", "a=queue:x,b")))
			.withMessageContaining("destinationMappings");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> router(Map.of("destinationMappings", "a=tap:x")))
			.withMessageContaining("destinationMappings");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> router(Map.of("defaultOutputChannel", "job:x")))
			.withMessageContaining("defaultOutputChannel");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> router(Map.of("expression", "T(java.lang.Runtime).getRuntime()")))
			.withMessageContaining("expression");
	}

	@Test
	void needsTheContainersDestinations() {
		assertThatIllegalStateException()
			.isThrownBy(() -> ModuleTestDriver.of(new RouterSink.Provider(), Map.of(), this.dir))
			.withMessageContaining("needs a Destinations");
	}
}
