package io.xd.modules.builtin.tcp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.messaging.MessageDeliveryException;

import io.xd.modules.Connection;
import io.xd.modules.HostAccess;
import io.xd.modules.ModuleOptionException;
import io.xd.modules.testkit.ModuleTestDriver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** The tcp sink writing to a real server socket of the test's on 127.0.0.1. */
class TcpSinkTests {

	@TempDir
	Path dir;

	private ServerSocket server;

	@BeforeEach
	void listen() throws IOException {
		this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		this.server.setSoTimeout(5000);
	}

	@AfterEach
	void close() throws IOException {
		this.server.close();
	}

	private HostAccess access() {
		return HostAccess.defaults(this.dir)
			.withConnectHosts(List.of("127.0.0.1"))
			.withConnections(Map.of("receiver", Connection.of("127.0.0.1", this.server.getLocalPort())));
	}

	private ModuleTestDriver sink(String... options) {
		Map<String, String> all = new java.util.HashMap<>(Map.of("host", "127.0.0.1", "port",
				Integer.toString(this.server.getLocalPort())));
		for (int i = 0; i < options.length; i += 2) {
			all.put(options[i], options[i + 1]);
		}
		return ModuleTestDriver.of(new TcpSink.Provider(), all, this.dir, access());
	}

	/** Reads what one accepted connection sends until the peer closes it, or {@code size} bytes. */
	private CompletableFuture<byte[]> receive(int size) {
		return CompletableFuture.supplyAsync(() -> {
			try (Socket socket = this.server.accept(); InputStream in = socket.getInputStream()) {
				socket.setSoTimeout(5000);
				ByteArrayOutputStream bytes = new ByteArrayOutputStream();
				while (bytes.size() < size) {
					int b = in.read();
					if (b < 0) {
						break;
					}
					bytes.write(b);
				}
				return bytes.toByteArray();
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	@ParameterizedTest
	@CsvSource({ "CRLF, 68690d0a77c3b60d0a", "LF, 68690a77c3b60a", "NULL, 68690077c3b600",
			"STXETX, 02686903" + "0277c3b603", "L1, 02686903" + "77c3b6", "L2, 00026869" + "000377c3b6",
			"L4, 000000026869" + "0000000377c3b6" })
	void framesEachMessageWithItsEncoderOnOneConnection(String encoder, String expectedHex) throws Exception {
		byte[] expected = java.util.HexFormat.of().parseHex(expectedHex);
		CompletableFuture<byte[]> received = receive(expected.length);
		try (ModuleTestDriver driver = sink("encoder", encoder)) {
			driver.send("hi").send("w\u00f6".getBytes(StandardCharsets.UTF_8));
			assertThat(received.get(5, TimeUnit.SECONDS)).isEqualTo(expected);
		}
	}

	@Test
	void rawAndCloseGiveEachMessageAConnectionOfItsOwn() throws Exception {
		try (ModuleTestDriver driver = sink("encoder", "RAW")) {
			CompletableFuture<byte[]> first = receive(Integer.MAX_VALUE);
			driver.send("all of\r\nit");
			assertThat(new String(first.get(5, TimeUnit.SECONDS), StandardCharsets.UTF_8)).isEqualTo("all of\r\nit");
			CompletableFuture<byte[]> second = receive(Integer.MAX_VALUE);
			driver.send("more");
			assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("more".getBytes(StandardCharsets.UTF_8));
		}
		try (ModuleTestDriver driver = sink("encoder", "LF", "close", "true")) {
			CompletableFuture<byte[]> first = receive(Integer.MAX_VALUE);
			driver.send("one");
			assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("one\n".getBytes(StandardCharsets.UTF_8));
		}
	}

	@Test
	void aDeclaredConnectionNeedsNoAllowedHost() throws Exception {
		HostAccess noHosts = HostAccess.defaults(this.dir)
			.withConnections(Map.of("receiver", Connection.of("127.0.0.1", this.server.getLocalPort())));
		CompletableFuture<byte[]> received = receive(3);
		try (ModuleTestDriver driver = ModuleTestDriver.of(new TcpSink.Provider(),
				Map.of("connection", "receiver", "encoder", "LF"), this.dir, noHosts)) {
			driver.send("ok");
			assertThat(received.get(5, TimeUnit.SECONDS)).isEqualTo("ok\n".getBytes(StandardCharsets.UTF_8));
		}
	}

	@Test
	void refusesAHostTheOperatorDoesNotAllowAndHostWithConnection() {
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink("host", "localhost"))
			.withMessageContaining("option 'host'")
			.withMessageContaining("xd.modules.connect.allowed-hosts");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> sink("connection", "receiver"))
			.withMessageContaining("options 'connection' and 'host' are refused together");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new TcpSink.Provider(), Map.of("connection", "receiver", "port", "1"),
					this.dir, access()))
			.withMessageContaining("option 'port' is refused with a connection");
		assertThatExceptionOfType(ModuleOptionException.class)
			.isThrownBy(() -> ModuleTestDriver.of(new TcpSink.Provider(), Map.of("connection", "nope"), this.dir,
					access()))
			.withMessageContaining("no connection of that name is declared");
	}

	@Test
	void aRefusedConnectionOrAnOversizedMessageIsAnErrorForTheBus() throws IOException {
		int port = this.server.getLocalPort();
		try (ModuleTestDriver driver = sink("bufferSize", "4")) {
			assertThatExceptionOfType(MessageDeliveryException.class).isThrownBy(() -> driver.send("too long"))
				.withMessageContaining("larger than bufferSize, 4 bytes");
			this.server.close();
			assertThatExceptionOfType(MessageDeliveryException.class).isThrownBy(() -> driver.send("ok"))
				.withMessageContaining("could not send to 127.0.0.1:" + port)
				.satisfies(ex -> assertThat(ex.getFailedMessage().getPayload()).isEqualTo("ok"));
		}
	}

	@Test
	void aConnectionTheServerClosedIsDroppedAndTheNextMessageConnectsAnew() throws Exception {
		try (ModuleTestDriver driver = sink("encoder", "LF")) {
			CompletableFuture<byte[]> first = receive(2);
			driver.send("a");
			assertThat(first.get(5, TimeUnit.SECONDS)).isEqualTo("a\n".getBytes(StandardCharsets.UTF_8));
			// the receiver closed its end after 2 bytes: the sink notices, and does not write into the dead connection
			await().atMost(Duration.ofSeconds(5)).until(() -> !driver.<TcpSink>module().isConnected());
			CompletableFuture<byte[]> second = receive(2);
			driver.send("b");
			assertThat(second.get(5, TimeUnit.SECONDS)).isEqualTo("b\n".getBytes(StandardCharsets.UTF_8));
		}
	}

	@Test
	void aTlsConnectionWhoseHandshakeFailsIsAnError() throws Exception {
		HostAccess access = HostAccess.defaults(this.dir).withConnections(Map.of("secure",
				new Connection("127.0.0.1", this.server.getLocalPort(), null, null, true, Map.of())));
		// the server accepts and never answers the handshake
		CompletableFuture<byte[]> silent = receive(Integer.MAX_VALUE);
		try (ModuleTestDriver driver = ModuleTestDriver.of(new TcpSink.Provider(),
				Map.of("connection", "secure", "socketTimeout", "300"), this.dir, access)) {
			assertThatExceptionOfType(MessageDeliveryException.class).isThrownBy(() -> driver.send("secret"))
				.withMessageContaining("could not send to 127.0.0.1:" + this.server.getLocalPort());
		}
		silent.get(5, TimeUnit.SECONDS);
	}
}
