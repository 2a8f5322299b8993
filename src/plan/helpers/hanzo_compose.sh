# hanzo_compose ARG...: docker compose ARG..., else the older docker-compose ARG...
hanzo_compose() {
  if docker compose version >/dev/null 2>&1; then docker compose "$@"; else docker-compose "$@"; fi
}
