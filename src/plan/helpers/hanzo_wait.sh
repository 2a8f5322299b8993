# hanzo_wait NAME PORT: wait up to 30 s for PORT to answer.
hanzo_wait() {
  local _
  for _ in $(seq 60); do hanzo_answers "$2" && return 0; sleep 0.5; done
  echo "hanzo-env: $1 is not answering on port $2 after 30 s" >&2
  return 1
}
