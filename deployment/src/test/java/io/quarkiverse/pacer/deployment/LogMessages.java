package io.quarkiverse.pacer.deployment;

import java.util.logging.LogRecord;

import org.jboss.logmanager.ExtLogRecord;

/** Log records as they print: JBoss Logging keeps the format and its parameters apart. */
final class LogMessages {

    private LogMessages() {
    }

    static String formatted(LogRecord record) {
        return record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage();
    }
}
