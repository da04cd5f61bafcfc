# Sourced: serves the folder $1 with nginx on a free loopback port, its files in $2 (created);
# sets PORT, stops nginx by pid on exit and returns once manifest.json answers.
static_nginx() {
    local root="$1" folder="$2"
    PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    rm -rf "$folder" && mkdir -p "$folder"
    cat > "$folder/nginx.conf" <<CONF
daemon off; worker_processes 1; pid $folder/nginx.pid; error_log $folder/error.log;
events { worker_connections 64; }
http { access_log off; sendfile on; client_body_temp_path $folder; proxy_temp_path $folder;
       fastcgi_temp_path $folder; uwsgi_temp_path $folder; scgi_temp_path $folder;
       types { application/octet-stream tsb; application/json json sig; }
       server { listen 127.0.0.1:$PORT; root $root; } }
CONF
    /usr/sbin/nginx -p "$folder" -c "$folder/nginx.conf" -e "$folder/error.log" &
    NGINX_PID=$!
    trap 'kill $NGINX_PID 2>/dev/null || true' EXIT
    for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/manifest.json" && break; sleep 0.1; done
}
