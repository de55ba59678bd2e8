#!/usr/bin/env bash
# Answers one coding-agent harness hook event through a running `hookwise serve` on this
# machine over bash's own /dev/tcp (HTTP/1.0), and runs the hook command it is given itself
# whenever the server does not answer in full. `hookwise setup HARNESS CONFIG --server URL`
# writes the command that runs it; docs/harnesses.md says when the command decides.
#
#   bash hookwise-post.bash HOST PORT HARNESS CONFIG AGENT COMMAND [ARG...]
#
# AGENT: the config's agent ("" for its default one). The server's token, if any, comes from
# HOOKWISE_SERVER_TOKEN. HOOKWISE_GATE=1: the call ends with exit code 0 or 2 only.
# This runs on every tool call: its comments are few, as bash reads every line it runs.

set -u
shopt -s extglob
export LC_ALL=C # lengths and characters in bytes
trap '' PIPE    # a server that closes early is a failed post, not the end of this script
# The harness's stderr on 4; until the command decides, this script's own errors go nowhere.
exec 4>&2 2>/dev/null
[[ ${HOOKWISE_GATE-} == 1 ]] &&
  trap 'code=$?; ((code == 0 || code == 2)) || { exec 2>&4; echo "hookwise: the hook command ended with exit code $code before deciding; blocked" >&2; exit 2; }' EXIT

host=$1 port=$2 harness=$3 config=$4 agent=$5
shift 5
# A bash older than 4.1 (macOS's /bin/bash is 3.2) has no `read -N`: the command decides.
((BASH_VERSINFO[0] * 100 + BASH_VERSINFO[1] >= 401)) || {
  exec 2>&4
  "$@" 4>&-
  exit
}

# Posted up to the server's body limit; a larger event goes to the command whole.
limit=1048576
event=
IFS= read -r -N $((limit + 1)) event

# One pass: `break` leaves it for the command to decide.
while ((${#event} <= limit)); do
  token=${HOOKWISE_SERVER_TOKEN:-none}
  # A token that would end its header line is not sent.
  [[ $token == *[$'\r\n']* ]] && break
  # Header values percent-encoded: any byte of a path reaches the server as it is.
  config_header=$config agent_header=$agent
  if [[ $config$agent == *[!A-Za-z0-9/._~-]* ]]; then
    for name in config agent; do
      text=${!name} encoded=
      for ((index = 0; index < ${#text}; index++)); do
        char=${text:index:1}
        case $char in
        [A-Za-z0-9/._~-]) encoded+=$char ;;
        *)
          printf -v hex '%%%02X' "'$char"
          encoded+=$hex
          ;;
        esac
      done
      printf -v "${name}_header" '%s' "$encoded"
    done
  fi
  [[ $host == *:* ]] && authority="[$host]" || authority=$host

  # The request in one write, its body the event and a newline. Bash's output flushes at each
  # line until its first flush: a newline to /dev/null (stderr, for now) makes that flush.
  printf -v request 'POST /hooks/%s HTTP/1.0\r\nhost: %s:%s\r\ncontent-type: application/json\r\nx-hookwise-config-encoded: %s\r\nx-hookwise-agent-encoded: %s\r\nauthorization: Bearer %s\r\ncontent-length: %d\r\n\r\n%s\n' \
    "$harness" "$authority" "$port" "$config_header" "$agent_header" "$token" "$((${#event} + 1))" "$event"
  echo >&2
  { exec 3<>"/dev/tcp/$host/$port"; } || break
  printf '%s' "$request" >&3 || break

  # The whole answer, up to `limit` bytes, until the server closes the connection (1), within
  # 30 s: `read -N` reads in blocks.
  IFS= read -r -N $((limit + 1)) -t 30 -u 3 response
  (($? == 1)) || break
  # A 200 marked as hookwise's answer, whole: its content-length, no transfer-encoding.
  # Header names in any case (matched in lower case); each line ends with CRLF.
  head=${response%%$'\r\n\r\n'*}
  ((${#head} < ${#response} && ${#head} <= 8192)) || break
  body=${response:${#head}+4}
  head=${head,,}$'\r\n'
  case $head in
  'http/1.'[01]' 200'$'\r\n'* | 'http/1.'[01]' 200 '*) ;;
  *) break ;;
  esac
  [[ $head == *$'\n'x-hookwise-answer:*([ $'\t'])1*([ $'\t'])$'\r\n'* ]] || break
  [[ $head == *$'\n'transfer-encoding:* ]] && break
  length=${head%%$'\n'content-length:*}
  [[ $length != "$head" ]] || break
  length=${head:${#length}+16}
  [[ $length != *$'\n'content-length:* ]] || break
  length=${length%%$'\r\n'*}
  [[ $length == *([ $'\t'])+([0-9])*([ $'\t']) ]] || break
  length=${length//[ $'\t']/}
  ((${#length} <= 9 && ${#body} == 10#$length)) || break
  # Answered: the EXIT trap is not run (bash would parse it); a failed print still blocks.
  printf '%s' "$body" && trap - EXIT
  exit
done

# The command decides, given the event (and what the harness sends after `limit`).
exec 3>&- 2>&4
if ((${#event} > limit)); then
  { printf '%s' "$event"; cat; } | "$@" 4>&-
else
  printf '%s' "$event" | "$@" 4>&-
fi
