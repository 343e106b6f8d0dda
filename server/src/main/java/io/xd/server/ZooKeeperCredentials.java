package io.xd.server;

import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.List;

import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * The digest identity an XD process authenticates to ZooKeeper with, and the ACL it gives every znode it creates:
 * all permissions to that identity, none to anyone else.
 * @param username the user name, without {@code :}
 * @param password the password; not printed by {@link #toString()}
 */
public record ZooKeeperCredentials(String username, String password) {

	/** ZooKeeper's scheme for user name and password identities. */
	public static final String SCHEME = "digest";

	public ZooKeeperCredentials {
		if (username == null || username.isBlank() || username.contains(":")) {
			throw new IllegalArgumentException("zk.auth.username must be set, without ':', when zk.auth.password is");
		}
		if (password == null || password.isEmpty()) {
			throw new IllegalArgumentException("zk.auth.password must be set when zk.auth.username is");
		}
	}

	/** What the client sends to authenticate ({@code username:password}, for the {@value #SCHEME} scheme). */
	public byte[] authorization() {
		return (this.username + ":" + this.password).getBytes(StandardCharsets.UTF_8);
	}

	/** The ACL of XD's znodes: every permission for this identity only. */
	public List<ACL> acl() {
		try {
			String digest = DigestAuthenticationProvider.generateDigest(this.username + ":" + this.password);
			// not List.of: ZooKeeper asks the list whether it contains null, which List.of answers with an exception
			return Collections.singletonList(new ACL(ZooDefs.Perms.ALL, new Id(SCHEME, digest)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("This JVM has no SHA-1, which ZooKeeper's digest scheme needs", ex);
		}
	}

	@Override
	public String toString() {
		return "ZooKeeperCredentials[username=" + this.username + ", password=[hidden]]";
	}
}
