package io.quarkiverse.pacer.test.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.jboss.logmanager.ExtLogRecord;

/** Collects the formatted messages one logger writes at a level, while open. */
public final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger;
    private final Level level;
    private final List<String> messages = new CopyOnWriteArrayList<>();

    private LogCapture(Logger logger, Level level) {
        this.logger = logger;
        this.level = level;
    }

    public static LogCapture of(Class<?> loggerClass, Level level) {
        LogCapture capture = new LogCapture(Logger.getLogger(loggerClass.getName()), level);
        capture.logger.addHandler(capture);
        return capture;
    }

    public List<String> messages() {
        return messages;
    }

    @Override
    public void publish(LogRecord record) {
        if (record.getLevel().equals(level)) {
            messages.add(record instanceof ExtLogRecord ext ? ext.getFormattedMessage() : record.getMessage());
        }
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
