# hanzo_service PRODUCT ARG...: start PRODUCT without Docker through its function
# (hanzo_postgres ARG...); a failure is counted and returned, and the next service still starts.
# hanzo_services_started then fails when any did.
hanzo_service() {
  if ! declare -F "hanzo_$1" >/dev/null; then
    echo "hanzo-env: without Docker, $1 is not started (no distribution package provides it)" >&2
  elif "hanzo_$1" "${@:2}"; then
    return 0
  fi
  hanzo_service_failures=$((${hanzo_service_failures:-0} + 1))
  return 1
}
hanzo_services_started() { [ "${hanzo_service_failures:-0}" = 0 ]; }
