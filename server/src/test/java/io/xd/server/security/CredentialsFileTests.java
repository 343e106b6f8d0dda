package io.xd.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CredentialsFileTests {

	@TempDir
	Path dir;

	@Test
	void createsTheDataDirectoryAndTheFileForTheServersUserOnly() throws IOException {
		Path data = this.dir.resolve("home/.xd/data");
		CredentialsFile credentials = CredentialsFile.obtain(data.resolve("credentials.properties"), "admin", "test");

		assertThat(credentials.password()).hasSize(32);
		for (Path created : new Path[] { data, data.getParent(), data.getParent().getParent() }) {
			assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created))).as(created.toString())
				.isEqualTo("rwx------");
		}
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(credentials.file())))
			.isEqualTo("rw-------");
		assertThat(CredentialsFile.obtain(credentials.file(), "admin", "test").password())
			.isEqualTo(credentials.password());
	}

	@Test
	void refusesACredentialsFileThatIsASymbolicLink() throws IOException {
		Path planted = Files.writeString(this.dir.resolve("planted"), "username=admin\npassword=chosen-by-someone\n");
		Path file = Files.createSymbolicLink(this.dir.resolve("credentials.properties"), planted);

		assertThatIOException().isThrownBy(() -> CredentialsFile.obtain(file, "admin", "test"))
			.withMessageContaining("symbolic link");
		assertThat(Files.readString(planted)).contains("chosen-by-someone");
	}

	@Test
	void refusesACredentialsFileOfAnotherUser() throws IOException {
		Path file = Files.writeString(this.dir.resolve("credentials.properties"),
				"username=admin\npassword=chosen-by-someone\n");
		UserPrincipal nobody;
		try {
			nobody = file.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
			Files.setOwner(file, nobody);
		}
		catch (IOException | UnsupportedOperationException ex) {
			nobody = null;
		}
		assumeTrue(nobody != null && Files.getOwner(file, LinkOption.NOFOLLOW_LINKS).equals(nobody),
				"giving a file to another user needs root");

		assertThatIOException().isThrownBy(() -> CredentialsFile.obtain(file, "admin", "test"))
			.withMessageContaining("belongs to nobody");
	}
}
