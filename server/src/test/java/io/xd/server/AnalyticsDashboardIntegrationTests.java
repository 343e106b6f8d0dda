package io.xd.server;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.xd.modules.analytics.AnalyticsStore;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's Analytics page in a real browser (Debian's headless Chromium, as {@link DashboardIntegrationTests})
 * against a real singlenode whose analytics store holds one metric of each kind: the counter and gauge values, the
 * rich gauge's mean, a bar per value of the field-value counter, a column per bucket of the aggregate counter at the
 * resolution chosen. A screenshot goes to {@code target/dashboard-screenshots/dashboard-analytics.png}.
 */
class AnalyticsDashboardIntegrationTests {

	private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

	@TempDir
	static Path data;

	private static SingleNode node;

	private static ChromeDriver browser;

	@BeforeAll
	static void start() throws IOException {
		assertThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))
			.as("the dashboard test needs %s and %s: build-support/install-test-servers installs them", CHROMIUM,
					CHROMEDRIVER)
			.isTrue();
		node = new SingleNode(data.resolve("node"), "--xd.security.users.operator.password={noop}operator-secret",
				"--xd.security.users.operator.roles=VIEW,DESTROY");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--window-size=1360,1100",
				"--user-data-dir=" + Files.createDirectories(data.resolve("chromium-profile")));
		browser = new ChromeDriver(new ChromeDriverService.Builder()
			.usingDriverExecutable(new File(CHROMEDRIVER.toString()))
			.usingAnyFreePort()
			.build(), options);
	}

	@AfterAll
	static void stop() {
		if (browser != null) {
			browser.quit();
		}
		if (node != null) {
			node.close();
		}
	}

	@Test
	void showsEveryKindWithABarChartOfFieldValuesAndColumnsOverTime() throws IOException {
		// what the sinks would have written, straight into the singlenode's store
		AnalyticsStore store = node.context().getBean(AnalyticsStore.class);
		store.incrementCounter("clicks", 42);
		store.setGauge("temperature", 21);
		for (double value : new double[] { 2, 4, 9 }) {
			store.recordRichGauge("load", value, -1);
		}
		for (String device : List.of("phone", "tablet", "phone", "watch", "phone", "tablet")) {
			store.incrementFieldValue("devices", device, 1);
		}
		Instant now = Instant.now();
		store.incrementAggregate("hits", now, 3);
		store.incrementAggregate("hits", now.minus(2, ChronoUnit.HOURS), 5);

		browser.get(node.baseUri() + "/dashboard/#/analytics");
		waitFor(By.id("login-form"));
		browser.findElement(By.id("login-username")).sendKeys("operator");
		browser.findElement(By.id("login-password")).sendKeys("operator-secret");
		browser.findElement(By.id("login-submit")).click();
		waitUntil(driver -> driver.findElements(By.cssSelector("svg.time-chart rect.bucket")).size() == 24);

		assertThat(text("#analytics-counters tr[data-metric='clicks'] .value")).isEqualTo("42");
		assertThat(text("#analytics-gauges tr[data-metric='temperature'] .value")).isEqualTo("21");
		assertThat(text("#analytics-rich-gauges tr[data-metric='load'] .average")).isEqualTo("5");
		assertThat(text("#analytics-rich-gauges tr[data-metric='load'] .count")).isEqualTo("3");
		List<String> bars = browser.findElements(By.cssSelector("[data-metric='devices'] g.bar"))
			.stream()
			.map(bar -> bar.getDomAttribute("data-value") + "=" + bar.getDomAttribute("data-count"))
			.toList();
		assertThat(bars).containsExactly("phone=3", "tablet=2", "watch=1");
		// found by their time, not their place: the chart ends at the current hour (or minute), which may have turned
		// since the counts were recorded
		Bar thisHour = bucket(now, ChronoUnit.HOURS);
		Bar twoHoursAgo = bucket(now.minus(2, ChronoUnit.HOURS), ChronoUnit.HOURS);
		assertThat(thisHour.count()).isEqualTo("3");
		assertThat(twoHoursAgo.count()).isEqualTo("5");
		assertThat(twoHoursAgo.height()).isGreaterThan(thisHour.height());
		Path screenshots = Files.createDirectories(Path.of("target", "dashboard-screenshots"));
		Files.write(screenshots.resolve("dashboard-analytics.png"), browser.getScreenshotAs(OutputType.BYTES));

		new Select(browser.findElement(By.id("analytics-resolution"))).selectByValue("minute");
		waitUntil(driver -> driver.findElements(By.cssSelector("[data-metric='hits'] rect.bucket")).size() == 60);
		assertThat(bucket(now, ChronoUnit.MINUTES).count()).isEqualTo("3");
	}

	/** A bar of a time chart: its count and its height. */
	private record Bar(String count, double height) {
	}

	/**
	 * The bar of the {@code hits} chart for the bucket of {@code unit} (hour, minute) that holds {@code time}, read
	 * again when the dashboard re-rendered the chart meanwhile.
	 */
	private static Bar bucket(Instant time, ChronoUnit unit) {
		String start = time.truncatedTo(unit).toString();
		List<Bar> read = new ArrayList<>();
		waitUntil(driver -> {
			read.clear();
			for (WebElement bar : driver.findElements(By.cssSelector("[data-metric='hits'] rect.bucket"))) {
				if (Instant.parse(bar.getDomAttribute("data-time")).toString().equals(start)) {
					read.add(new Bar(bar.getDomAttribute("data-count"),
							Double.parseDouble(bar.getDomAttribute("height"))));
				}
			}
			return true;
		});
		assertThat(read).as("the bars of the bucket of %s", start).hasSize(1);
		return read.get(0);
	}

	/**
	 * The element's text, read again when the dashboard re-rendered the element between finding and reading it
	 * ({@link #waitUntil} ignores a stale element, and the wait one not found yet).
	 */
	private static String text(String css) {
		String[] read = new String[1];
		waitUntil(driver -> {
			read[0] = driver.findElement(By.cssSelector(css)).getText();
			return true;
		});
		return read[0];
	}

	private static void waitFor(By by) {
		waitUntil(driver -> !driver.findElements(by).isEmpty() && driver.findElement(by).isDisplayed());
	}

	private static void waitUntil(Function<WebDriver, Boolean> condition) {
		new WebDriverWait(browser, Duration.ofSeconds(30), Duration.ofMillis(100))
			.ignoring(StaleElementReferenceException.class)
			.until(condition::apply);
	}
}
