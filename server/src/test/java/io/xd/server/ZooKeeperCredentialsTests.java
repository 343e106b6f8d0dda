package io.xd.server;

import java.util.Map;

import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The ZooKeeper credentials: where they are read from, what they may be, and that the password is not printed. */
class ZooKeeperCredentialsTests {

	@Test
	void areReadFromTheEnvironmentAsZkAuthUsernameAndPassword() {
		StandardEnvironment environment = new StandardEnvironment();
		// Spring Boot maps environment variable names only for a source of this name
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					Map.of("ZK_AUTH_USERNAME", "ops", "ZK_AUTH_PASSWORD", "s3cret")));
		ZooKeeperProperties properties = new Binder(ConfigurationPropertySources.get(environment))
			.bind("zk", ZooKeeperProperties.class)
			.get();
		assertThat(properties.getAuth().getUsername()).isEqualTo("ops");
		assertThat(properties.getAuth().getPassword()).isEqualTo("s3cret");
		assertThat(properties.getAuth().toString()).doesNotContain("s3cret");
	}

	@Test
	void refuseAUserNameWithAColonOrAMissingHalf() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ZooKeeperCredentials("a:b", "pw"))
			.withMessageContaining("without ':'");
		assertThatIllegalArgumentException().isThrownBy(() -> new ZooKeeperCredentials("", "pw"));
		assertThatIllegalArgumentException().isThrownBy(() -> new ZooKeeperCredentials("xd", ""))
			.withMessageContaining("zk.auth.password must be set");
	}

	@Test
	void printWithoutThePasswordAndGiveAllPermissionsToTheDigestIdentityOnly() {
		ZooKeeperCredentials credentials = new ZooKeeperCredentials("xd", "pa:ss");
		assertThat(credentials.toString()).doesNotContain("pa:ss");
		assertThat(credentials.acl()).singleElement().satisfies(acl -> {
			assertThat(acl.getPerms()).isEqualTo(ZooDefs.Perms.ALL);
			assertThat(acl.getId().getScheme()).isEqualTo("digest");
			assertThat(acl.getId().getId()).startsWith("xd:").doesNotContain("pa:ss");
		});
	}
}
