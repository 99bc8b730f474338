package pgkuid.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;

import javax.net.SocketFactory;

/**
 * pgJDBC's {@code socketFactory} for a server's Unix-domain socket, with
 * the JDK's own support for them (Java 16 and later), as libpq connects
 * when PGHOST is a directory: {@code socketFactoryArg} is the socket's path
 * ({@code DIR/.s.PGSQL.PORT}); the host and port of the URL are not used.
 */
public final class UnixSocketFactory extends SocketFactory {
    private final Path path;

    public UnixSocketFactory(String path) { this.path = Path.of(path); }

    @Override
    public Socket createSocket() throws SocketException { return new UnixSocket(path); }

    private Socket connected() throws IOException {
        Socket s = createSocket();
        s.connect(null, 0);
        return s;
    }

    @Override
    public Socket createSocket(String host, int port) throws IOException { return connected(); }

    @Override
    public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
        return connected();
    }

    @Override
    public Socket createSocket(InetAddress host, int port) throws IOException { return connected(); }

    @Override
    public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort) throws IOException {
        return connected();
    }

    /** A Socket over a Unix-domain SocketChannel: what pgJDBC's PGStream calls of it. */
    private static final class UnixSocket extends Socket {
        private final Path path;
        private SocketChannel channel;
        private InputStream in;
        private OutputStream out;

        UnixSocket(Path path) throws SocketException {
            super((java.net.SocketImpl) null);
            this.path = path;
        }

        @Override
        public void connect(SocketAddress ignored, int timeout) throws IOException {
            channel = SocketChannel.open(StandardProtocolFamily.UNIX);
            channel.connect(UnixDomainSocketAddress.of(path));
            in = Channels.newInputStream(channel);
            out = Channels.newOutputStream(channel);
        }

        @Override
        public void connect(SocketAddress ignored) throws IOException { connect(ignored, 0); }

        @Override
        public InputStream getInputStream() { return in; }

        @Override
        public OutputStream getOutputStream() { return out; }

        @Override
        public boolean isConnected() { return channel != null && channel.isConnected(); }

        @Override
        public boolean isClosed() { return channel != null && !channel.isOpen(); }

        @Override
        public synchronized void close() throws IOException {
            if (channel != null) {
                channel.close();
            }
        }

        // TCP's options mean nothing here; pgJDBC sets some of them.
        @Override
        public void setTcpNoDelay(boolean on) {}

        @Override
        public void setKeepAlive(boolean on) {}

        @Override
        public synchronized void setSoTimeout(int timeout) {}

        @Override
        public synchronized int getSoTimeout() { return 0; }

        @Override
        public synchronized void setReceiveBufferSize(int size) {}

        @Override
        public synchronized void setSendBufferSize(int size) {}

        @Override
        public synchronized int getReceiveBufferSize() { return 65536; }

        @Override
        public synchronized int getSendBufferSize() { return 65536; }
    }
}
