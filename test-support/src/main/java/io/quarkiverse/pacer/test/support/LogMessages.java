package io.quarkiverse.pacer.test.support;

import java.util.logging.LogRecord;

import org.jboss.logmanager.ExtLogRecord;

/** Log records as they print: JBoss Logging keeps the format and its parameters apart. */
public final class LogMessages {

    private LogMessages() {
    }

    public static String formatted(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }
}
