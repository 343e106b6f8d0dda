package io.xd.modules.builtin;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.expression.spel.support.StandardEvaluationContext;
import org.springframework.integration.context.IntegrationContextUtils;

/**
 * What Spring Integration components used outside an application context (a mail receiver, an SFTP synchronizer or
 * handler) look up in their bean factory at initialisation: an evaluation context, for the expressions they are
 * given. Modules give them only literal expressions of their own, never text from a definition.
 */
public final class IntegrationBeans {

	private IntegrationBeans() {
	}

	/** A bean factory holding only Spring Integration's evaluation context. */
	public static BeanFactory minimal() {
		DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
		beans.registerSingleton(IntegrationContextUtils.INTEGRATION_EVALUATION_CONTEXT_BEAN_NAME,
				new StandardEvaluationContext());
		return beans;
	}
}
