# hanzo_docker compose|run: Docker can bring the services up (an engine answers, and for
# compose, docker compose or docker-compose is here).
hanzo_docker() {
  docker info >/dev/null 2>&1 || return 1
  [ "$1" != compose ] || docker compose version >/dev/null 2>&1 || command -v docker-compose >/dev/null
}
