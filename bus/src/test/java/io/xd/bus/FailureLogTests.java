package io.xd.bus;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import org.springframework.messaging.MessageHandlingException;

import static org.assertj.core.api.Assertions.assertThat;

class FailureLogTests {

	private final Logger logger = (Logger) LoggerFactory.getLogger(FailureLogTests.class.getName() + ".log");

	private final ListAppender<ILoggingEvent> events = new ListAppender<>();

	private final AtomicLong nanos = new AtomicLong();

	private final FailureLog log = new FailureLog(this.logger, Duration.ofSeconds(30), this.nanos::get);

	@BeforeEach
	void attach() {
		this.events.start();
		this.logger.addAppender(this.events);
		this.logger.setAdditive(false);
	}

	@AfterEach
	void detach() {
		this.logger.detachAppender(this.events);
	}

	@Test
	void logsTheFirstFailureWithItsStackTraceAndCountsTheRestUntilTheIntervalPasses() {
		for (int i = 0; i < 100; i++) {
			this.log.failed("A consumer of 's.0' failed on a message", failure("bad payload " + i));
			this.nanos.addAndGet(Duration.ofMillis(100).toNanos());
		}
		// 10 s have passed: the first failure alone was logged
		assertThat(this.events.list).hasSize(1);
		ILoggingEvent first = this.events.list.get(0);
		assertThat(first.getLevel()).isEqualTo(Level.ERROR);
		assertThat(first.getThrowableProxy()).as("the stack trace, once").isNotNull();
		assertThat(first.getFormattedMessage()).contains("A consumer of 's.0' failed on a message",
				IllegalArgumentException.class.getName());

		this.nanos.addAndGet(Duration.ofSeconds(25).toNanos());
		this.log.failed("A consumer of 's.0' failed on a message", failure("bad payload 100"));

		assertThat(this.events.list).hasSize(2);
		ILoggingEvent summary = this.events.list.get(1);
		assertThat(summary.getLevel()).isEqualTo(Level.WARN);
		assertThat(summary.getThrowableProxy()).as("one line, no stack trace").isNull();
		assertThat(summary.getFormattedMessage()).startsWith("100 more failures of the kind "
				+ IllegalArgumentException.class.getName()).endsWith("bad payload 100");

		this.log.failed("A consumer of 's.0' failed on a message", failure("bad payload 101"));
		assertThat(this.events.list).as("the next line waits for the next interval").hasSize(2);
	}

	@Test
	void aNewKindOfFailureIsLoggedWithItsStackTraceAtOnce() {
		this.log.failed("failed", failure("first"));
		this.log.failed("failed", failure("second"));
		this.log.failed("failed", new MessageHandlingException(null, "wrapped", new IllegalStateException("other")));
		this.log.failed("failed", new IllegalStateException("other again"));

		List<ILoggingEvent> logged = this.events.list;
		assertThat(logged).hasSize(2);
		assertThat(logged).allSatisfy(event -> {
			assertThat(event.getLevel()).isEqualTo(Level.ERROR);
			assertThat(event.getThrowableProxy()).isNotNull();
		});
		assertThat(logged.get(1).getFormattedMessage()).contains(IllegalStateException.class.getName());
	}

	private static Exception failure(String message) {
		// as a bus sees it: the module's exception wrapped by the handling code
		return new MessageHandlingException(null, "handling failed", new IllegalArgumentException(message));
	}
}
