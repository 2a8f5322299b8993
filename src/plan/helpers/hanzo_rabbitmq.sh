# hanzo_rabbitmq PORT USER PASSWORD VHOST MANAGEMENT_PORT: one RabbitMQ node per machine;
# the user is made at the node's first boot.
hanzo_rabbitmq() {
  hanzo_needs rabbitmq rabbitmqctl rabbitmq-server || return 1
  if ! hanzo_answers "$1"; then
    hanzo_root mkdir -p /etc/rabbitmq/conf.d || return 1
    { printf 'listeners.tcp.default = 127.0.0.1:%s\nloopback_users = none\n' "$1"
      [ -z "$2" ] || printf 'default_user = %s\ndefault_pass = %s\n' "$2" "$3"
      [ -z "$4" ] || printf 'default_vhost = %s\n' "$4"
      [ -z "$5" ] || printf 'management.tcp.ip = 127.0.0.1\nmanagement.tcp.port = %s\n' "$5"
    } | hanzo_root tee /etc/rabbitmq/conf.d/99-hanzo-env.conf >/dev/null || return 1
    [ -z "$5" ] || hanzo_root rabbitmq-plugins enable --offline rabbitmq_management >/dev/null || return 1
    hanzo_root /etc/init.d/rabbitmq-server start >/dev/null || return 1
  fi
  hanzo_wait rabbitmq "$1"
}
