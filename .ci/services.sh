#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432, database "test") and Redis (127.0.0.1:6379) answer,
# starting the machine's own services when they are installed but stopped. Used by .ci/run.
set -euo pipefail

pg_ready() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
redis_ready() { [ "$(redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = "PONG" ]; }
wait_for() { for _ in $(seq 1 30); do "$1" && return 0; sleep 1; done; return 1; }

if ! pg_ready; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    echo "Starting PostgreSQL…"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
  fi
  wait_for pg_ready || { echo "PostgreSQL is not reachable on 127.0.0.1:5432 (install: apt-get install postgresql)" >&2; exit 1; }
fi
psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'test'" postgres | grep -q 1 ||
  psql -h 127.0.0.1 -U postgres -c 'CREATE DATABASE test' postgres >/dev/null

if ! redis_ready; then
  if command -v redis-server >/dev/null; then
    echo "Starting Redis…"
    mkdir -p /var/lib/redis /var/log/redis
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log
  fi
  wait_for redis_ready || { echo "Redis is not reachable on 127.0.0.1:6379 (install: apt-get install redis-server)" >&2; exit 1; }
fi
echo "PostgreSQL and Redis are up."
