#!/usr/bin/env bash
# A user's own application, built natively against this checkout of Pacer (issue 30): installs Pacer into a private
# local Maven repository (never ~/.m2, which it only reads), generates a small application outside the repository,
# builds it with -Dnative and calls it with curl against a redis-server of its own. The application carries no
# @RegisterForReflection and no native option: what it needs natively, Pacer's build must register.
#
# Needs: GRAALVM_HOME (a GraalVM/Mandrel, or shared/tools/native-image/setup.sh), redis-server and curl on the PATH.
# Environment: PACER_USER_APP_DIR (where the application is generated; default a new temporary folder),
# PACER_USER_APP_REPO (the private local repository; default a new temporary folder), PACER_NATIVE_XMX (default 5g),
# PACER_USER_APP_NATIVE=false (build and check the jar instead, without GRAALVM_HOME).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

fail() {
    echo "native-user-app: $*" >&2
    exit 1
}
native="${PACER_USER_APP_NATIVE:-true}"
[ "$native" = false ] || [ -n "${GRAALVM_HOME:-}" ] || fail "GRAALVM_HOME is not set"
command -v redis-server >/dev/null || fail "redis-server is not on the PATH"
command -v curl >/dev/null || fail "curl is not on the PATH"

app="${PACER_USER_APP_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/pacer-user-app.XXXXXX")}"
repo="${PACER_USER_APP_REPO:-$(mktemp -d "${TMPDIR:-/tmp}/pacer-user-app-m2.XXXXXX")}"
case "$app" in "$root"/*) fail "the application must live outside the repository ($app)" ;; esac
shared_repo="${HOME}/.m2/repository"
# The private repository is the head; the shared one is a read-only tail (Maven 3.9), so nothing is written there.
mvn_repo=(-Dmaven.repo.local="$repo" -Dmaven.repo.local.tail="$shared_repo")
echo "native-user-app: application in $app, private Maven repository $repo"

# 1. Install Pacer (the extension's modules and their parent) into the private repository.
modules=runtime,deployment
[ -d "$root/runtime-dev" ] && modules="$modules,runtime-dev"
(cd "$root" && ./mvnw -B -q install "${mvn_repo[@]}" -pl "$modules" -am -DskipTests)
pacer_version="$(ls "$repo/io/quarkiverse/pacer/quarkus-pacer")"
pacer_version="${pacer_version%%$'\n'*}"
quarkus_version="$(sed -n 's:.*<quarkus.version>\(.*\)</quarkus.version>.*:\1:p' "$root/pom.xml" | head -1)"
[ -n "$pacer_version" ] && [ -n "$quarkus_version" ] || fail "cannot tell Pacer's or Quarkus's version"
echo "native-user-app: quarkus-pacer $pacer_version on Quarkus $quarkus_version"

# 2. The application: what a user writes, nothing more.
src="$app/src/main/java/org/acme/shop"
mkdir -p "$src"
cat >"$app/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
    <modelVersion>4.0.0</modelVersion>
    <groupId>org.acme</groupId>
    <artifactId>shop</artifactId>
    <version>1.0.0-SNAPSHOT</version>
    <properties>
        <maven.compiler.release>17</maven.compiler.release>
        <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
        <quarkus.version>${quarkus_version}</quarkus.version>
    </properties>
    <dependencyManagement>
        <dependencies>
            <dependency>
                <groupId>io.quarkus</groupId>
                <artifactId>quarkus-bom</artifactId>
                <version>\${quarkus.version}</version>
                <type>pom</type>
                <scope>import</scope>
            </dependency>
        </dependencies>
    </dependencyManagement>
    <dependencies>
        <dependency>
            <groupId>io.quarkiverse.pacer</groupId>
            <artifactId>quarkus-pacer</artifactId>
            <version>${pacer_version}</version>
        </dependency>
        <dependency>
            <groupId>io.quarkus</groupId>
            <artifactId>quarkus-rest-jackson</artifactId>
        </dependency>
    </dependencies>
    <build>
        <plugins>
            <plugin>
                <groupId>io.quarkus</groupId>
                <artifactId>quarkus-maven-plugin</artifactId>
                <version>\${quarkus.version}</version>
                <extensions>true</extensions>
                <executions>
                    <execution>
                        <goals>
                            <goal>build</goal>
                        </goals>
                    </execution>
                </executions>
            </plugin>
        </plugins>
    </build>
    <profiles>
        <profile>
            <id>native</id>
            <activation>
                <property>
                    <name>native</name>
                </property>
            </activation>
            <properties>
                <quarkus.native.enabled>true</quarkus.native.enabled>
            </properties>
        </profile>
    </profiles>
</project>
EOF
cat >"$src/ShopResource.java" <<'EOF'
package org.acme.shop;

import java.time.Duration;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Response;

import io.quarkiverse.pacer.delay.DelayedQueue;
import io.quarkiverse.pacer.throttle.ThrottleKey;
import io.quarkiverse.pacer.throttle.Throttled;
import io.smallrye.mutiny.Uni;

@Path("/shop")
public class ShopResource {

    @Inject
    DelayedQueue queue;

    @Inject
    Reminders reminders;

    /** Per API key (the X-Api-Key header), with each customer's limit from PlanLimits. */
    @GET
    @Path("/quote")
    @Throttled(name = "quotes", limit = 1, window = "1h", key = ApiKeyResolver.class, limits = PlanLimits.class)
    public String quote() {
        return "quote";
    }

    /** Reactive, one limit per product. */
    @GET
    @Path("/stock/{product}")
    @Throttled(name = "stock", limit = 2, window = "1h")
    public Uni<String> stock(@PathParam("product") @ThrottleKey String product) {
        return Uni.createFrom().item("stock of " + product);
    }

    @POST
    @Path("/carts/{id}/reminder")
    @Produces(MediaType.TEXT_PLAIN)
    public String remind(@PathParam("id") String id) {
        Reminder reminder = new Reminder(id, new Customer("ada@example.com", 3), List.of("book", "pen"));
        return queue.schedule("cart-reminders", id, reminder, Duration.ofMillis(300));
    }

    @GET
    @Path("/carts/{id}/reminder")
    @Produces(MediaType.APPLICATION_JSON)
    public Response reminded(@PathParam("id") String id) {
        Reminder reminder = reminders.sent(id);
        return reminder == null ? Response.status(Response.Status.NOT_FOUND).build() : Response.ok(reminder).build();
    }
}
EOF
cat >"$src/ApiKeyResolver.java" <<'EOF'
package org.acme.shop;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.interceptor.InvocationContext;
import jakarta.ws.rs.core.HttpHeaders;

import io.quarkiverse.pacer.throttle.ThrottleKeyResolver;

@ApplicationScoped
public class ApiKeyResolver implements ThrottleKeyResolver {

    @Inject
    HttpHeaders headers;

    @Override
    public String resolve(InvocationContext invocation) {
        return headers.getHeaderString("X-Api-Key");
    }
}
EOF
cat >"$src/PlanLimits.java" <<'EOF'
package org.acme.shop;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.throttle.ThrottleLimit;
import io.quarkiverse.pacer.throttle.ThrottleLimitResolver;

/** Customers whose key starts with "gold-" get 3 quotes an hour, the others the policy's 1. */
@ApplicationScoped
public class PlanLimits implements ThrottleLimitResolver {

    @Override
    public ThrottleLimit resolve(String policy, String apiKey) {
        return ThrottleLimit.of(apiKey != null && apiKey.startsWith("gold-") ? 3 : 1);
    }
}
EOF
cat >"$src/Reminder.java" <<'EOF'
package org.acme.shop;

import java.util.List;

public record Reminder(String cart, Customer customer, List<String> items) {
}
EOF
cat >"$src/Customer.java" <<'EOF'
package org.acme.shop;

public record Customer(String email, int visits) {
}
EOF
cat >"$src/Reminders.java" <<'EOF'
package org.acme.shop;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkiverse.pacer.delay.Delayed;

@ApplicationScoped
public class Reminders {

    private final Map<String, Reminder> sent = new ConcurrentHashMap<>();

    @Delayed("cart-reminders")
    void send(Reminder reminder) {
        sent.put(reminder.cart(), reminder);
    }

    Reminder sent(String cart) {
        return sent.get(cart);
    }
}
EOF

# 3. The native build, as a user runs it.
if [ "$native" = false ]; then
    (cd "$app" && "$root/mvnw" -B package "${mvn_repo[@]}" -DskipTests)
    run=(java -jar "$app/target/quarkus-app/quarkus-run.jar")
    [ -f "${run[2]}" ] || fail "no jar at ${run[2]}"
else
    (cd "$app" && "$root/mvnw" -B package "${mvn_repo[@]}" -Dnative -DskipTests \
        -Dquarkus.native.native-image-xmx="${PACER_NATIVE_XMX:-5g}")
    run=("$app/target/shop-1.0.0-SNAPSHOT-runner")
    [ -x "${run[0]}" ] || fail "no native executable at ${run[0]}"
fi

# 4. Run it against a redis-server of its own, on free ports.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
redis_port="$(free_port)"
http_port="$(free_port)"
redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly no --daemonize no >"$app/redis.log" 2>&1 &
redis_pid=$!
app_pid=""
cleanup() {
    [ -n "$app_pid" ] && kill "$app_pid" 2>/dev/null || true
    kill "$redis_pid" 2>/dev/null || true
}
trap cleanup EXIT
started=$(date +%s%N)
config=(-Dquarkus.http.port="$http_port" -Dquarkus.redis.hosts="redis://127.0.0.1:$redis_port")
if [ "$native" = false ]; then
    java "${config[@]}" -jar "${run[2]}" >"$app/app.log" 2>&1 &
else
    "${run[0]}" "${config[@]}" >"$app/app.log" 2>&1 &
fi
app_pid=$!
base="http://127.0.0.1:$http_port"
for _ in $(seq 1 200); do
    if curl -s -o /dev/null "$base/shop/stock/warmup" 2>/dev/null; then
        break
    fi
    sleep 0.05
done
echo "native-user-app: first answer after $((($(date +%s%N) - started) / 1000000)) ms," \
    "RSS $(ps -o rss= -p "$app_pid" | tr -d ' ') kB"

status() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
expect() {
    local want="$1" got="$2" what="$3"
    if [ "$want" != "$got" ]; then
        echo "--- application log" >&2
        cat "$app/app.log" >&2
        fail "$what: expected $want, got $got"
    fi
    echo "native-user-app: $what: $got"
    passed=$((passed + 1))
}
passed=0
expect 200 "$(status -H 'X-Api-Key: basic-1' "$base/shop/quote")" "quote, basic key, 1st"
expect 429 "$(status -H 'X-Api-Key: basic-1' "$base/shop/quote")" "quote, basic key, 2nd"
for i in 1 2 3; do
    expect 200 "$(status -H 'X-Api-Key: gold-1' "$base/shop/quote")" "quote, gold key, call $i"
done
expect 429 "$(status -H 'X-Api-Key: gold-1' "$base/shop/quote")" "quote, gold key, call 4"
expect '"quotes";q=3;w=3600' "$(curl -s -o /dev/null -w '%header{ratelimit-policy}' -H 'X-Api-Key: gold-1' \
    "$base/shop/quote")" "RateLimit-Policy of the gold key"
# The warm-up call took one permit of "warmup", not of "pen".
expect 200 "$(status "$base/shop/stock/pen")" "stock (Uni), 1st"
expect 200 "$(status "$base/shop/stock/pen")" "stock (Uni), 2nd"
expect 429 "$(status "$base/shop/stock/pen")" "stock (Uni), 3rd"
expect 200 "$(status -X POST "$base/shop/carts/c-42/reminder")" "schedule a reminder"
reminder=""
for _ in $(seq 1 100); do
    reminder="$(curl -s -f "$base/shop/carts/c-42/reminder" || true)"
    [ -n "$reminder" ] && break
    sleep 0.1
done
expect '{"cart":"c-42","customer":{"email":"ada@example.com","visits":3},"items":["book","pen"]}' "$reminder" \
    "the @Delayed consumer's record payload"
if grep -E ' (ERROR|WARN) ' "$app/app.log"; then
    fail "the application logged errors or warnings (above)"
fi
echo "native-user-app: $passed passed, 0 failed"
