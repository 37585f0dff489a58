# bash completion for tilefit: commands, flags, machine and workset names,
# and the params and variables of the workset named on the line.  Every
# word offered comes from the tilefit being completed -- its --help, its
# COMMAND --help, `tilefit machines`, `tilefit worksets [NAME]` -- so the
# completion offers what that binary accepts and needs no list of its own.
# Installed as PREFIX/share/bash-completion/completions/tilefit.

_tilefit_commands() {
  "$1" --help 2>/dev/null | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p'
}

# The flags a command's help names: a "-x" or "--long" after a space, a
# comma, "|" or "[".
_tilefit_flags() {
  $1 $2 --help 2>/dev/null | grep -oE -- '(^|[][[:space:],|])--?[a-zA-Z][-a-zA-Z]*' | sed 's/^[^-]*//' | sort -u
}

# Shipped names: the first word of each line of `tilefit machines|worksets`.
_tilefit_names() {
  "$1" "$2" 2>/dev/null | awk '{ print $1 }'
}

# The params (kind "params") or variables ("choose count" or "choose") of a
# workset, from the sections of `tilefit worksets NAME`.
_tilefit_symbols() {
  "$1" worksets "$2" 2>/dev/null | awk -v kinds=" $3 " '
    /^[a-z]+:$/ { sub(/:$/, ""); inside = index(kinds, " " $0 " ") > 0; next }
    /^  [A-Za-z_]/ && inside { print $1 }
    /^[^ ]/ { inside = 0 }'
}

# The workset given on the line so far with -w or --workset.
_tilefit_workset() {
  local i
  for ((i = 2; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -w | --workset) echo "${COMP_WORDS[i + 1]}"; return ;;
      --workset=*) echo "${COMP_WORDS[i]#--workset=}"; return ;;
    esac
  done
}

# NAME= for each symbol, with no space after it: the value comes next.
_tilefit_assignments() {
  local ws
  ws=$(_tilefit_workset)
  [[ -n $ws ]] || return
  COMPREPLY=($(compgen -W "$(_tilefit_symbols "$1" "$ws" "$2" | sed 's/$/=/')" -- "$cur"))
  compopt -o nospace 2>/dev/null
}

_tilefit() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} bin=${COMP_WORDS[0]} cmd
  COMPREPLY=()
  command -v "$bin" >/dev/null 2>&1 || bin=tilefit
  if ((COMP_CWORD == 1)); then
    COMPREPLY=($(compgen -W "$(_tilefit_commands "$bin") --help --version" -- "$cur"))
    return
  fi
  cmd=${COMP_WORDS[1]}
  if [[ $cmd == plot ]]; then # plot map|sweep: the subcommand, then its own flags
    if ((COMP_CWORD == 2)); then
      COMPREPLY=($(compgen -W "map sweep" -- "$cur"))
      return
    fi
    cmd="plot ${COMP_WORDS[2]}"
  fi
  case $prev in
    -m | --machine) COMPREPLY=($(compgen -W "$(_tilefit_names "$bin" machines)" -- "$cur") $(compgen -f -X '!*.json' -- "$cur")); return ;;
    -w | --workset) COMPREPLY=($(compgen -W "$(_tilefit_names "$bin" worksets)" -- "$cur") $(compgen -f -X '!*.json' -- "$cur")); return ;;
    -p | --param) _tilefit_assignments "$bin" "params"; return ;;
    --fix) _tilefit_assignments "$bin" "choose count"; return ;;
    --domain) _tilefit_assignments "$bin" "choose"; return ;;
    -o | --output | --lp | --mps) COMPREPLY=($(compgen -f -- "$cur")); return ;;
    --format) COMPREPLY=($(compgen -W "jsonl csv" -- "$cur")); return ;;
    --scale | --x-scale) COMPREPLY=($(compgen -W "auto linear log rank" -- "$cur")); return ;;
    -j | --jobs | --top | --time-limit | --shard | --require | --objective | --color | --map) return ;;
    --x | --y)
      if [[ $cmd == "plot map" ]]; then # the choose variables, without the "="
        _tilefit_assignments "$bin" "choose"
        COMPREPLY=("${COMPREPLY[@]%=}")
        compopt +o nospace 2>/dev/null
      fi
      return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_tilefit_flags "$bin" "$cmd")" -- "$cur"))
    return
  fi
  case $cmd in
    machines | worksets) COMPREPLY=($(compgen -W "$(_tilefit_names "$bin" "$cmd")" -- "$cur") $(compgen -f -X '!*.json' -- "$cur")) ;;
    sweep | validate | merge | prune | "plot sweep") COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}
complete -F _tilefit tilefit
