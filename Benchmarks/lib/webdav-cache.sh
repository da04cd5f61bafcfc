# Sourced by the benchmarks that need a Bazel HTTP remote cache: nginx-light with WebDAV in the
# folder $NGINX (its files under $NGINX/store) on a free loopback port, stopped by its pid at exit.
# Sets PORT, NGINX_PID and REMOTE (the cache's URL). Each request is logged to
# $NGINX/access.log as "METHOD STATUS REQUEST-BYTES BODY-BYTES".
mkdir -p "$NGINX/store"
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
USER_LINE=""; [ "$(id -u)" -eq 0 ] && USER_LINE="user root root;"
cat > "$NGINX/nginx.conf" <<CONF
$USER_LINE
daemon off; worker_processes 1; pid $NGINX/nginx.pid; error_log $NGINX/error.log;
events { worker_connections 512; }
http { log_format requests '\$request_method \$status \$request_length \$body_bytes_sent';
  access_log $NGINX/access.log requests; client_max_body_size 0; client_body_temp_path $NGINX/body;
  server { listen 127.0.0.1:$PORT; root $NGINX/store;
    dav_methods PUT DELETE; create_full_put_path on; dav_access user:rw group:rw all:r; } }
CONF
/usr/sbin/nginx -p "$NGINX" -c "$NGINX/nginx.conf" &
NGINX_PID=$!
trap 'kill $NGINX_PID 2>/dev/null || true' EXIT
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
REMOTE="http://127.0.0.1:$PORT/cache"
