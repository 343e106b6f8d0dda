package io.xd.admin.cluster;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DepartedContainersTests {

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	private final DepartedContainers departures = new DepartedContainers(Duration.ofSeconds(10));

	@Test
	void aLiveHolderHasNotDeparted() {
		assertThat(this.departures.departed(Set.of("c1"), Set.of("c1"), 0)).isEmpty();
	}

	@Test
	void aMissingHolderDepartsOnlyAfterTheGracePeriod() {
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 0)).isEmpty();
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 9 * SECOND)).isEmpty();
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 10 * SECOND)).containsExactly("c1");
	}

	@Test
	void tellsWhenTheFirstGracePeriodEndsSoThatTheSupervisorLooksAgainThen() {
		assertThat(this.departures.nextDeparture(0)).isEmpty();
		this.departures.departed(Set.of(), Set.of("c1"), 0);
		this.departures.departed(Set.of(), Set.of("c1", "c2"), 4 * SECOND);
		assertThat(this.departures.nextDeparture(7 * SECOND)).contains(java.time.Duration.ofSeconds(3));
		this.departures.departed(Set.of(), Set.of("c1", "c2"), 10 * SECOND);
		assertThat(this.departures.nextDeparture(10 * SECOND)).contains(java.time.Duration.ofSeconds(4));
	}

	@Test
	void aHolderThatComesBackStartsAfresh() {
		this.departures.departed(Set.of(), Set.of("c1"), 0);
		this.departures.departed(Set.of("c1"), Set.of("c1"), 5 * SECOND);
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 12 * SECOND)).isEmpty();
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 22 * SECOND)).containsExactly("c1");
	}

	@Test
	void aDepartedContainerIsReportedOnce() {
		this.departures.departed(Set.of(), Set.of("c1"), 0);
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 10 * SECOND)).containsExactly("c1");
		// its allocations were dropped; should it hold some again while missing, a new grace period starts
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 11 * SECOND)).isEmpty();
	}

	@Test
	void aMissingContainerWithoutAllocationsIsNotTracked() {
		assertThat(this.departures.departed(Set.of(), Set.of(), 0)).isEmpty();
		assertThat(this.departures.departed(Set.of(), Set.of("c1"), 30 * SECOND)).isEmpty();
	}
}
