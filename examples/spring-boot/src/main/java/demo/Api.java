package demo;

import java.util.concurrent.ThreadLocalRandom;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The service of docs/study.md's worked example: {@code /io} waits 20 ms as a call to a remote
 * service would; {@code /legacy} holds one of 64 monitors around a 10 ms wait, as old client
 * libraries do (on JDK 21 a virtual thread pins its carrier there). Virtual threads on or off with
 * {@code --spring.threads.virtual.enabled}.
 */
@SpringBootApplication
@RestController
public class Api {
    private static final Object[] LOCKS = new Object[64];

    static {
        for (int i = 0; i < LOCKS.length; i++) {
            LOCKS[i] = new Object();
        }
    }

    public static void main(String[] args) {
        SpringApplication.run(Api.class, args);
    }

    @GetMapping("/io")
    public String io() throws InterruptedException {
        Thread.sleep(20);
        return "io\n";
    }

    @GetMapping("/legacy")
    public String legacy() throws InterruptedException {
        synchronized (LOCKS[ThreadLocalRandom.current().nextInt(LOCKS.length)]) {
            Thread.sleep(10);
        }
        return "legacy\n";
    }
}
