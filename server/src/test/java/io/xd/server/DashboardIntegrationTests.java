package io.xd.server;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

import io.xd.server.AdminApi.Response;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard at {@code /dashboard/} in a real browser (Debian's headless Chromium through its chromedriver,
 * installed by {@code .ci/run}) against a real singlenode: logging in, the parser's positioned error shown under
 * the definition, creating and deploying streams (a tap and a named queue among them), seeing their rates move,
 * the containers and modules pages, undeploying and destroying, what a VIEW-only user is offered, a hundred
 * streams, and scaling, updating and rolling back. Screenshots of each page go to
 * {@code target/dashboard-screenshots/} (those in docs/images are copied from there).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardIntegrationTests {

	private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

	private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

	private static final Path SCREENSHOTS = Path.of("target", "dashboard-screenshots");

	private static final Pattern RATE = Pattern.compile("([0-9.]+)(k?)/s");

	@TempDir
	static Path data;

	private static SingleNode node;

	private static ChromeDriver browser;

	@BeforeAll
	static void start() throws IOException {
		assertThat(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER))
			.as("the dashboard test needs %s and %s: apt-get install chromium chromium-driver (.ci/run does)",
					CHROMIUM, CHROMEDRIVER)
			.isTrue();
		node = new SingleNode(data.resolve("node"), "--xd.container.rateInterval=1s",
				"--xd.security.users.operator.password={noop}operator-secret",
				"--xd.security.users.operator.roles=VIEW,CREATE,DEPLOY,DESTROY,MANAGE",
				"--xd.security.users.viewer.password={noop}viewer-secret", "--xd.security.users.viewer.roles=VIEW");
		node.withCredentials("operator", "operator-secret");
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
				"--disable-background-networking", "--disable-component-update", "--disable-sync",
				"--disable-dev-shm-usage", "--window-size=1360,860",
				"--user-data-dir=" + Files.createDirectories(data.resolve("chromium-profile")));
		ChromeDriverService service = new ChromeDriverService.Builder()
			.usingDriverExecutable(new File(CHROMEDRIVER.toString()))
			.usingAnyFreePort()
			.build();
		browser = new ChromeDriver(service, options);
		Files.createDirectories(SCREENSHOTS);
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

	@AfterEach
	void screenshotOfWhereItStopped() {
		// on success the last page, on failure the page that failed: either helps whoever reads the report
		if (browser != null) {
			screenshot("last");
		}
	}

	@Test
	@Order(1)
	void logsInCreatesDeploysWatchesAndDestroysStreams() {
		browser.get(node.baseUri() + "/dashboard");
		assertThat(browser.getCurrentUrl()).endsWith("/dashboard/");
		waitFor(By.id("login-form"));
		screenshot("login");

		logIn("operator", "wrong");
		assertThat(waitForText(By.id("login-error"), text -> !text.isEmpty())).isEqualTo("Wrong user name or password.");
		logIn("operator", "operator-secret");
		assertThat(waitForText(By.id("stream-summary"), text -> text.startsWith("0 streams"))).isNotEmpty();

		// a definition the parser refuses: its code, sentence and a caret under the character at its position
		openPage("#/create");
		type(By.id("create-name"), "broken");
		type(By.id("create-definition"), "time | | log");
		click(By.id("create-submit"));
		WebElement error = waitFor(By.id("create-error"));
		assertThat(waitForText(By.cssSelector("#create-error .code"), text -> !text.isEmpty())).isEqualTo("XD102E");
		assertThat(error.findElement(By.cssSelector(".detail")).getText()).contains("expected a module name after '|'");
		assertThat(error.findElement(By.cssSelector(".line")).getText()).isEqualTo("time | | log");
		String caret = (String) script("return document.querySelector('#create-error .caret').textContent");
		assertThat(caret).isEqualTo("       ^").hasSize(8);
		screenshot("create");
		assertThat(node.get("/streams/definitions/broken").status()).isEqualTo(404);

		createStream("ticktock", "time --fixedDelay=100 --timeUnit=MILLISECONDS | log --level=DEBUG", true);
		createStream("ticktap", "tap:stream:ticktock.time > log --level=DEBUG", true);
		createStream("ticks", "time --fixedDelay=250 --timeUnit=MILLISECONDS > queue:ticks", false);

		// the list: names, states, the graph of each stream with its channels, rates that move from none to ~10/s
		openPage("#/streams");
		waitForText(streamCell("ticktock", ".status"), "deployed"::equals);
		waitForText(streamCell("ticktap", ".status"), "deployed"::equals);
		assertThat(waitForText(streamCell("ticks", ".status"), text -> !text.isEmpty())).isEqualTo("undeployed");
		// ~10/s; one 1 s window may read more when a stalled tap catches up on a busy machine, so the test waits for
		// a window that shows the stream's real pace
		waitForText(streamCell("ticktock", "td.rate"), DashboardIntegrationTests::aboutTenPerSecond);
		waitForText(streamCell("ticktap", "td.rate"), DashboardIntegrationTests::aboutTenPerSecond);
		assertThat(browser.findElement(streamCell("ticktap", "svg .channel-tap")).getText())
			.isEqualTo("tap:stream:ticktock.time");
		assertThat(browser.findElement(streamCell("ticks", "svg .channel-queue")).getText()).isEqualTo("queue:ticks");
		assertThat(browser.findElement(streamCell("ticktock", "svg .module[data-label='log'] .rate")).getText())
			.matches(RATE);
		assertThat(browser.findElement(By.id("stream-summary")).getText()).isEqualTo("3 streams, 2 deployed");
		screenshot("streams");

		// a stream's page: its graph, its instances with their containers, the stream that taps it
		openPage("#/streams/ticktock");
		waitForText(By.cssSelector("#instances tr[data-module='ticktock.source.time.1'] td.rate"),
				DashboardIntegrationTests::positiveRate);
		waitForText(By.cssSelector("#instances tr[data-module='ticktock.sink.log.1'] td.rate"),
				DashboardIntegrationTests::positiveRate);
		assertThat(browser.findElement(By.cssSelector(".tapped-by")).getText()).isEqualTo("Tapped by ticktap");
		waitForText(By.id("history-note"), text -> !text.equals("Loading…"));
		screenshot("stream");

		// the containers with their modules and rates
		openPage("#/containers");
		waitForText(By.cssSelector("#containers tr[data-module='ticktock.source.time.1'] td.rate"),
				DashboardIntegrationTests::positiveRate);
		assertThat(browser.findElements(By.cssSelector("#containers article.container"))).hasSize(1);
		assertThat(browser.findElements(By.cssSelector("#containers tr[data-module]"))).hasSize(3);
		screenshot("containers");

		// the modules and a module's options
		openPage("#/modules");
		click(By.cssSelector("tr[data-module='source:time'] a"));
		assertThat(waitForText(By.cssSelector(".module-details table.options"), text -> text.contains("--fixedDelay")))
			.contains("--timeUnit");
		screenshot("modules");

		// deploy with properties from the stream's page
		openPage("#/streams/ticks");
		type(By.id("deploy-properties"), "module.time.count=1");
		click(By.id("deploy"));
		waitForText(By.id("stream-status"), "deployed"::equals);
		waitForText(By.cssSelector("#instances tr[data-module='ticks.source.time.1'] td.rate"),
				DashboardIntegrationTests::positiveRate);

		// undeploy from the stream's page, destroy from the list, with its in-page confirmation
		openPage("#/streams/ticktock");
		click(By.id("undeploy"));
		waitForText(By.id("stream-status"), "undeployed"::equals);
		waitFor(By.id("deploy-form"));
		assertThat(node.status("ticktock")).isEqualTo("undeployed");
		openPage("#/streams");
		click(streamCell("ticktock", "td.actions .confirm button.danger"));
		click(streamCell("ticktock", "td.actions .confirm button.danger"));
		waitUntil(driver -> driver.findElements(By.cssSelector("tr[data-stream='ticktock']")).isEmpty());
		assertThat(node.get("/streams/definitions/ticktock").status()).isEqualTo(404);
		waitForText(By.id("stream-summary"), "2 streams, 2 deployed"::equals);
	}

	@Test
	@Order(2)
	void offersAViewerNothingItMayNotDo() {
		assertThat(node.createStream("watched", "time | log --level=DEBUG", false).status()).isEqualTo(201);
		logOut();
		logIn("viewer", "viewer-secret");
		waitForText(streamCell("watched", ".status"), "undeployed"::equals);
		assertThat(browser.findElement(By.cssSelector("#nav a[data-page='create']")).isDisplayed()).isFalse();
		assertThat(browser.findElements(By.cssSelector(".streams-page a.button"))).isEmpty();
		assertThat(browser.findElements(streamCell("watched", "td.actions button"))).isEmpty();
		assertThat(browser.findElements(By.cssSelector("tr[data-stream] td.actions button"))).isEmpty();
		openPage("#/streams/watched");
		waitForText(By.id("stream-status"), "undeployed"::equals);
		assertThat(browser.findElements(By.cssSelector(".stream-page button"))).isEmpty();
		assertThat(browser.findElements(By.cssSelector(".stream-page form"))).isEmpty();
		// the create page is not offered, not even by its address
		openPage("#/create");
		waitUntil(driver -> driver.getCurrentUrl().endsWith("#/streams"));
		assertThat(browser.findElements(By.id("create-form"))).isEmpty();
		logOut();
		logIn("operator", "operator-secret");
		waitFor(streamCell("watched", "td.actions button"));
		assertThat(node.delete("/streams/definitions/watched").status()).isEqualTo(200);
	}

	@Test
	@Order(3)
	void listsAHundredStreamsWithTwoRequestsAPoll() throws Exception {
		openPage("#/streams");
		ExecutorService pool = Executors.newFixedThreadPool(4);
		try {
			List<Future<Response>> created = new ArrayList<>();
			for (int i = 0; i < 100; i++) {
				String name = String.format("many%03d", i);
				created.add(pool.submit(() -> node.createStream(name, "time | log --level=DEBUG", false)));
			}
			for (Future<Response> answer : created) {
				assertThat(answer.get().status()).isEqualTo(201);
			}
		}
		finally {
			pool.shutdown();
			pool.awaitTermination(30, TimeUnit.SECONDS);
		}
		waitUntil(driver -> driver.findElements(By.cssSelector("tr[data-stream^='many']")).size() == 100);
		// count the page's requests over the next polls: two per poll (streams, module instances), none per stream
		script("performance.clearResourceTimings(); window.xdLongTasks = [];"
				+ "new PerformanceObserver(list => list.getEntries().forEach(task => window.xdLongTasks.push(task.duration)))"
				+ ".observe({type: 'longtask'});");
		sleep(Duration.ofMillis(4500));
		@SuppressWarnings("unchecked")
		List<String> requests = (List<String>) script(
				"return performance.getEntriesByType('resource').map(entry => new URL(entry.name).pathname)");
		assertThat(requests).isNotEmpty().allMatch(path -> path.equals("/streams/definitions")
				|| path.equals("/runtime/modules"));
		assertThat(requests).hasSizeBetween(2, 8);
		@SuppressWarnings("unchecked")
		List<Number> longTasks = (List<Number>) script("return window.xdLongTasks");
		assertThat(longTasks).as("main-thread tasks of 250 ms or more while polling").allMatch(ms -> ms.doubleValue() < 250);
		type(By.id("stream-filter"), "many04");
		waitUntil(driver -> driver.findElements(By.cssSelector("#streams tbody tr")).size() == 10);
		assertThat(node.delete("/streams/definitions").status()).isEqualTo(200);
	}

	/**
	 * Scale, update, history and rollback call the endpoints of the stream lifecycle (POST
	 * /streams/deployments/scale|update|rollback, GET /streams/deployments/history): this fails where they are missing.
	 */
	@Test
	@Order(4)
	void scalesUpdatesAndRollsBackFromTheStreamPage() {
		openPage("#/streams");
		createStream("scaled", "time --fixedDelay=100 --timeUnit=MILLISECONDS | log --level=DEBUG", true);
		waitForText(By.id("stream-status"), "deployed"::equals);
		waitFor(By.cssSelector("#instances tr[data-module='scaled.sink.log.1']"));

		new Select(browser.findElement(By.id("scale-label"))).selectByValue("log");
		type(By.id("scale-count"), "3");
		assertThat(clickForToast(By.id("scale"))).as("the scale endpoint's answer")
			.startsWith("Scaling 'log' of 'scaled' to 3");
		// singlenode has one container: a second and third instance cannot be placed, so the stream is incomplete
		waitForText(By.id("stream-status"), "incomplete"::equals);
		screenshot("scale");
		type(By.id("scale-count"), "1");
		click(By.id("scale"));
		waitForText(By.id("stream-status"), "deployed"::equals);
		waitUntil(driver -> instances(driver, "scaled.sink.log.") == 1);

		type(By.id("update-properties"), "module.log.count=2");
		assertThat(clickForToast(By.id("update"))).as("the update endpoint's answer").startsWith("Updating 'scaled'");
		waitForText(By.id("stream-status"), "incomplete"::equals);

		// the history lists each version; rolling back to the first brings back its single log instance
		waitUntil(driver -> driver.findElements(By.cssSelector("#history tr[data-version]")).size() >= 4);
		assertThat(clickForToast(By.cssSelector("#history tr[data-version='1'] button.rollback")))
			.as("the rollback endpoint's answer").startsWith("Rolling 'scaled' back to version 1");
		waitForText(By.id("stream-status"), "deployed"::equals);
		waitUntil(driver -> instances(driver, "scaled.sink.log.") == 1 && deployedInstances(driver, "scaled.") == 2);
		waitUntil(driver -> driver.findElements(By.cssSelector("#history tr[data-version]")).size() >= 5);
		screenshot("history");
		assertThat(node.delete("/streams/definitions/scaled").status()).isEqualTo(200);
	}

	/** A stream whose processor fails every message is degraded, and the processor's errors show in red. */
	@Test
	@Order(5)
	void showsAStreamFailingMessagesAsDegradedWithTheModulesErrors() {
		assertThat(node.createStream("sick", "load-generator --messageCount=100000 --rate=10 --messageSize=64"
				+ " --generateTimestamp=true | fail-on --every=1 | log", true).status()).isEqualTo(201);
		openPage("#/streams");
		// the container reports the failures with its rates, every 5 s
		waitForText(streamCell("sick", ".status.status-degraded"), "degraded"::equals);
		waitUntil(driver -> driver.findElement(By.id("stream-summary")).getText().contains("1 degraded"));
		openPage("#/streams/sick");
		waitForText(By.id("stream-status"), "degraded"::equals);
		By errors = By.cssSelector("#instances tr[data-module='sick.processor.fail-on.1'] td.errors.error-text");
		assertThat(waitForText(errors, text -> !text.isEmpty())).matches("[1-9][0-9]* \\(.*/s\\)");
		assertThat(browser.findElement(By.cssSelector(
				"#instances tr[data-module='sick.processor.fail-on.1'] td.dead-letters.error-text")).getText())
			.matches("[1-9][0-9]*");
		assertThat(browser.findElement(By.cssSelector(
				"#instances tr[data-module='sick.processor.fail-on.1'] td:last-child")).getText())
			.contains("fail-on refuses sequence number");
		assertThat(browser.findElements(By.cssSelector("#stream-graph .module.state-degraded"))).isNotEmpty();
		screenshot("degraded");
		assertThat(node.delete("/streams/definitions/sick").status()).isEqualTo(200);
	}

	/** A hop the admin binds directly (both modules count=0) is drawn as one, the others as bus hops. */
	@Test
	@Order(6)
	void drawsTheHopsThatAreBoundDirectly() {
		assertThat(node.createStream("together", "time --fixedDelay=100 --timeUnit=MILLISECONDS | transform "
				+ "--expression=payload | log --level=DEBUG", false).status()).isEqualTo(201);
		assertThat(node.postForm("/streams/deployments/together",
				Map.of("properties", "module.time.count=0,module.transform.count=0")).status()).isEqualTo(201);
		openPage("#/streams/together");
		waitForText(By.id("stream-status"), "deployed"::equals);
		waitUntil(driver -> driver.findElements(By.cssSelector("#stream-graph .arrow.direct")).size() == 1);
		assertThat(browser.findElements(By.cssSelector("#stream-graph .arrow"))).hasSize(2);
		assertThat(browser.findElement(By.cssSelector("#stream-graph .arrow.direct title")).getAttribute("textContent"))
			.startsWith("direct binding");
		screenshot("direct");
		assertThat(node.delete("/streams/definitions/together").status()).isEqualTo(200);
	}

	private static long instances(WebDriver driver, String prefix) {
		return driver.findElements(By.cssSelector("#instances tr[data-module^='" + prefix + "']")).size();
	}

	private static long deployedInstances(WebDriver driver, String prefix) {
		return driver.findElements(By.cssSelector("#instances tr[data-module^='" + prefix + "'] .status-deployed"))
			.size();
	}

	private static void createStream(String name, String definition, boolean deploy) {
		openPage("#/create");
		type(By.id("create-name"), name);
		type(By.id("create-definition"), definition);
		WebElement checkbox = browser.findElement(By.id("create-deploy"));
		if (checkbox.isSelected() != deploy) {
			checkbox.click();
		}
		click(By.id("create-submit"));
		waitUntil(driver -> driver.getCurrentUrl().endsWith("#/streams/" + name));
		waitForText(By.cssSelector("#stream-definition"), definition::equals);
	}

	private static void logIn(String username, String password) {
		waitFor(By.id("login-form"));
		type(By.id("login-username"), username);
		type(By.id("login-password"), password);
		click(By.id("login-submit"));
	}

	private static void logOut() {
		click(By.id("logout"));
		waitFor(By.id("login-form"));
	}

	/** Shows a page of the dashboard by its address, as a user following a link would. */
	private static void openPage(String hash) {
		script("location.hash = arguments[0]", hash);
	}

	private static By streamCell(String stream, String css) {
		return By.cssSelector("tr[data-stream='" + stream + "'] " + css);
	}

	/** Clicks and returns the text of the toast that reports what came of it. */
	private static String clickForToast(By by) {
		Object count = script("return document.getElementById('toasts').dataset.count || '0'");
		click(by);
		int next = Integer.parseInt(String.valueOf(count)) + 1;
		return waitForText(By.cssSelector("#toasts .toast[data-seq='" + next + "'] .text"), text -> !text.isEmpty());
	}

	private static boolean positiveRate(String text) {
		Matcher matcher = RATE.matcher(text);
		return matcher.find() && Double.parseDouble(matcher.group(1)) > 0;
	}

	private static boolean aboutTenPerSecond(String text) {
		Matcher matcher = RATE.matcher(text);
		return matcher.find() && rateOf(text) >= 3.0 && rateOf(text) <= 15.0;
	}

	private static double rateOf(String text) {
		Matcher matcher = RATE.matcher(text);
		assertThat(matcher.find()).as("a rate in '%s'", text).isTrue();
		return Double.parseDouble(matcher.group(1)) * (matcher.group(2).isEmpty() ? 1 : 1000);
	}

	private static void type(By by, String text) {
		WebElement element = waitFor(by);
		element.clear();
		element.sendKeys(text);
	}

	private static void click(By by) {
		waitUntil(driver -> {
			List<WebElement> found = driver.findElements(by);
			return !found.isEmpty() && found.get(0).isDisplayed() && found.get(0).isEnabled();
		});
		browser.findElement(by).click();
	}

	private static WebElement waitFor(By by) {
		waitUntil(driver -> !driver.findElements(by).isEmpty() && driver.findElement(by).isDisplayed());
		return browser.findElement(by);
	}

	/** Waits until the element's text (as shown) satisfies the condition, and returns that text. */
	private static String waitForText(By by, Predicate<String> condition) {
		String[] last = { null };
		try {
			waitUntil(driver -> {
				List<WebElement> found = driver.findElements(by);
				last[0] = found.isEmpty() ? null : found.get(0).getText();
				return last[0] != null && condition.test(last[0]);
			});
		}
		catch (TimeoutException ex) {
			throw new AssertionError("'" + by + "' showed '" + last[0] + "', not what the test waited for", ex);
		}
		return last[0];
	}

	private static void waitUntil(Function<WebDriver, Boolean> condition) {
		new WebDriverWait(browser, Duration.ofSeconds(30), Duration.ofMillis(100))
			.ignoring(StaleElementReferenceException.class)
			.until(condition::apply);
	}

	private static Object script(String script, Object... args) {
		return browser.executeScript(script, args);
	}

	private static void sleep(Duration duration) throws InterruptedException {
		Thread.sleep(duration.toMillis());
	}

	private static void screenshot(String page) {
		// the toasts of earlier steps would cover the documentation's pictures
		script("document.querySelectorAll('#toasts .toast').forEach(toast => toast.remove())");
		// the whole page, not only the window: Chromium's own screenshot beyond the viewport
		@SuppressWarnings("unchecked")
		Map<String, Object> size = (Map<String, Object>) browser.executeCdpCommand("Page.getLayoutMetrics", Map.of())
			.get("cssContentSize");
		Map<String, Object> clip = Map.of("x", 0, "y", 0, "width", size.get("width"), "height", size.get("height"),
				"scale", 1);
		String png = (String) browser
			.executeCdpCommand("Page.captureScreenshot", Map.of("format", "png", "captureBeyondViewport", true,
					"clip", clip))
			.get("data");
		try {
			Files.write(SCREENSHOTS.resolve("dashboard-" + page + ".png"), Base64.getDecoder().decode(png));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}
}
