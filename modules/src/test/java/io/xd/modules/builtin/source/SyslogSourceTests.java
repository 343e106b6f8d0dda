package io.xd.modules.builtin.source;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;

import io.xd.modules.Module;
import io.xd.modules.builtin.Modules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class SyslogSourceTests {

	private static final String RFC5424 = "<165>1 2003-10-11T22:14:15.003Z host1 app1 - ID47 [id@1 a=\"b\"] hi there";

	private static final String RFC3164 = "<34>Oct 11 22:14:15 host2 su[7]: 'su root' failed";

	private final JsonMapper json = JsonMapper.builder().build();

	private Module source;

	@AfterEach
	void stop() {
		if (this.source != null) {
			this.source.stop();
		}
	}

	@Test
	void udpParsesBothRfcsAndKeepsAnUnparseableLineRaw() throws IOException {
		Modules.Collecting output = new Modules.Collecting();
		SyslogUdpSource udp = Modules.create(new SyslogUdpSource.Provider(), Map.of("port", "0"));
		this.source = udp;
		udp.start(output);

		try (DatagramSocket client = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
			for (String line : List.of(RFC5424, RFC3164, "not syslog at all")) {
				byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
				client.send(new DatagramPacket(bytes, bytes.length, InetAddress.getLoopbackAddress(), udp.port()));
			}
			List<Message<?>> messages = output.awaitCount(3);
			assertParsed(messages);
			assertThat(messages.get(0).getHeaders().get(NetworkSources.PEER_PORT)).isEqualTo(client.getLocalPort());
		}
	}

	@Test
	void tcpParsesLinesOfBothRfcsAndKeepsAnUnparseableLineRaw() throws IOException {
		Modules.Collecting output = new Modules.Collecting();
		TcpSource tcp = Modules.create(new SyslogTcpSource.Provider(), Map.of("port", "0"));
		this.source = tcp;
		tcp.start(output);

		try (Socket client = new Socket(InetAddress.getLoopbackAddress(), tcp.port());
				OutputStream out = client.getOutputStream()) {
			out.write((RFC5424 + "\n" + RFC3164 + "\r\nnot syslog at all\n").getBytes(StandardCharsets.UTF_8));
			out.flush();
			assertParsed(output.awaitCount(3));
		}
	}

	private void assertParsed(List<Message<?>> messages) {
		Map<String, Object> first = parse(messages.get(0));
		Map<String, Object> second = parse(messages.get(1));
		Map<String, Object> third = parse(messages.get(2));
		assertThat(first).containsEntry("rfc", "5424")
			.containsEntry("facility", 20)
			.containsEntry("severity", 5)
			.containsEntry("host", "host1")
			.containsEntry("app", "app1")
			.containsEntry("structuredData", Map.of("id@1", Map.of("a", "b")))
			.containsEntry("message", "hi there");
		assertThat(second).containsEntry("rfc", "3164")
			.containsEntry("host", "host2")
			.containsEntry("app", "su")
			.containsEntry("procId", "7")
			.containsEntry("message", "'su root' failed");
		assertThat(third).containsEntry("raw", "not syslog at all").containsKey("error");
		for (Message<?> message : messages) {
			assertThat(message.getHeaders().get(MessageHeaders.CONTENT_TYPE)).isEqualTo("application/json");
			assertThat(message.getHeaders().get(NetworkSources.PEER_ADDRESS)).isEqualTo("127.0.0.1");
			assertThat(message.getHeaders().getId()).isNotNull();
			assertThat(message.getHeaders().getTimestamp()).isPositive();
		}
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> parse(Message<?> message) {
		return this.json.readValue((String) message.getPayload(), Map.class);
	}

	@Test
	void udpStartFailsNamingThePortWhenItIsInUse() throws IOException {
		try (DatagramSocket taken = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
			SyslogUdpSource udp = Modules.create(new SyslogUdpSource.Provider(),
					Map.of("port", String.valueOf(taken.getLocalPort())));

			assertThatIllegalStateException().isThrownBy(() -> udp.start(new Modules.Collecting()))
				.withMessageContaining("port " + taken.getLocalPort())
				.withMessageContaining("syslog-udp source of stream 'teststream'");
		}
	}

	@Test
	void tcpStartFailsNamingThePortWhenItIsInUse() throws IOException {
		try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			TcpSource tcp = Modules.create(new SyslogTcpSource.Provider(),
					Map.of("port", String.valueOf(taken.getLocalPort())));

			assertThatIllegalStateException().isThrownBy(() -> tcp.start(new Modules.Collecting()))
				.withMessageContaining("port " + taken.getLocalPort())
				.withMessageContaining("syslog-tcp source of stream 'teststream'");
		}
	}
}
