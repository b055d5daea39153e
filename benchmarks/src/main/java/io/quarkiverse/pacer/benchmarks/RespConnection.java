package io.quarkiverse.pacer.benchmarks;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A minimal blocking RESP2 connection for the harness's own administration ({@code CONFIG SET}, {@code FLUSHALL},
 * {@code SLOWLOG}, {@code MONITOR}), kept apart from the clients being measured so it never disturbs their pools.
 */
public final class RespConnection implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = new BufferedOutputStream(socket.getOutputStream());
    }

    public static RespConnection open(int port) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 1000);
        socket.setSoTimeout(120_000);
        socket.setTcpNoDelay(true);
        return new RespConnection(socket);
    }

    /**
     * Sends one command and reads its reply: {@code String} (simple or bulk), {@code Long}, {@code List<Object>} or
     * {@code null}.
     *
     * @throws IllegalStateException with the Redis error text on an error reply
     */
    public Object command(String... args) {
        try {
            write(args);
            return read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a command without reading its reply (for {@code MONITOR}, whose replies are then read as lines). */
    public void write(String... args) throws IOException {
        out.write(('*' + Integer.toString(args.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write('\r');
            out.write('\n');
        }
        out.flush();
    }

    public void timeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    public Object read() throws IOException {
        int type = in.read();
        if (type < 0) {
            throw new IOException("Connection closed by redis-server");
        }
        String line = readLine();
        switch (type) {
            case '+':
                return line;
            case '-':
                throw new IllegalStateException(line);
            case ':':
                return Long.parseLong(line);
            case '$': {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    return null;
                }
                byte[] bytes = in.readNBytes(length + 2);
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
            case '*': {
                int count = Integer.parseInt(line);
                if (count < 0) {
                    return null;
                }
                List<Object> items = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    try {
                        items.add(read());
                    } catch (IllegalStateException nestedError) {
                        items.add(nestedError);
                    }
                }
                return items;
            }
            default:
                throw new IOException("Unexpected RESP type byte " + (char) type);
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        int b;
        while ((b = in.read()) >= 0) {
            if (b == '\r') {
                in.read(); // '\n'
                break;
            }
            line.write(b);
        }
        return line.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing
        }
    }
}
