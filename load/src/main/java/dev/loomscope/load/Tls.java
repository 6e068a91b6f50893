package dev.loomscope.load;

import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The JDK's TLS for the load client: its default trust, or with {@code --insecure} any certificate (a test service's
 * self-signed one).
 */
final class Tls {
    private static volatile SSLSocketFactory insecure;

    private Tls() {}

    static SSLSocketFactory factory(boolean acceptAny) {
        if (!acceptAny) {
            return (SSLSocketFactory) SSLSocketFactory.getDefault();
        }
        SSLSocketFactory f = insecure;
        if (f == null) {
            try {
                SSLContext c = SSLContext.getInstance("TLS");
                c.init(null, new TrustManager[] {new AnyCertificate()}, null);
                f = c.getSocketFactory();
                insecure = f;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("the JDK has no TLS context", e);
            }
        }
        return f;
    }

    /** Trusts every certificate: what --insecure asks for, and nothing else uses. */
    private static final class AnyCertificate implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
            // a client certificate is never asked of the load client
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // --insecure: the user said the service's certificate need not verify
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
