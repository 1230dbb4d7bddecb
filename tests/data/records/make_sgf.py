#!/usr/bin/env python3
"""Write a BoardSpace-style .sgf of a game given as a GameString (the moves' MoveStrings), in a chosen style.
A tool for making Waggle's test records; it knows the geometry of MoveStrings and BoardSpace's lettered grid."""
import sys, json

DIRS = {'W': (-1, 0), 'SW': (-1, 1), 'NW': (0, -1), 'E': (1, 0), 'NE': (1, -1), 'SE': (0, 1)}

def parse_ms(ms):
    parts = ms.split()
    if parts[0] == 'pass':
        return ('pass', None, None)
    piece = parts[0]
    if len(parts) == 1:
        return (piece, None, None)
    ref = parts[1]
    if ref[0] == '-': return (piece, ref[1:], 'W')
    if ref[0] == '/': return (piece, ref[1:], 'SW')
    if ref[0] == '\\': return (piece, ref[1:], 'NW')
    if ref[-1] == '-': return (piece, ref[:-1], 'E')
    if ref[-1] == '/': return (piece, ref[:-1], 'NE')
    if ref[-1] == '\\': return (piece, ref[:-1], 'SE')
    return (piece, ref, None)

def cell(h, origin):
    q, r = h
    col = origin[0] + q
    row = origin[1] - r
    col = col % 26; row = (row - 1) % 26 + 1
    return f"{chr(ord('A') + col)} {row}"

def write(game_string, header, style, origin=(13, 13), ending=(), players=('P0', 'P1')):
    fields = game_string.split(';')
    moves = fields[3:]
    pos = {}
    out = [' (;', 'GM[27]VV[1]'] + header
    n = 0
    def say(p, text, tm=True):
        nonlocal n
        text = text.replace('\\', '\\\\').replace(']', '\\]')
        out.append(f"; {p}[{n} {text}]" + (f"TM[{1000 + n * 750}]" if tm and style.get('times') else ''))
        n += 1
    say(players[0], 'Start P0', tm=False)
    for i, ms in enumerate(moves):
        p = players[i % 2]
        mover = 'w' if i % 2 == 0 else 'b'
        piece, ref, d = parse_ms(ms)
        verb = (lambda v: v.lower()) if style.get('old') else (lambda v: v)
        if piece == 'pass':
            if style.get('passes'):
                say(p, verb('Pass'))
            say(p, verb('Done'))
            continue
        if ref is None:
            dest = (0, 0)
        elif d is None:
            dest = pos[ref]
        else:
            dq, dr = DIRS[d]
            dest = (pos[ref][0] + dq, pos[ref][1] + dr)
        note = '' if style.get('old') else (' .' if ref is None or d is None else ' ' + ms.split()[1])
        name = piece
        if style.get('old') and piece[0] == mover:
            name = piece[1:].lower()
        robot = style.get('robot', {}).get(mover, False)
        carried = piece[0] != mover
        if robot:
            word = ('PMove' if carried else 'Move')
            say(p, f"{verb(word)} {piece[0].upper()} {piece} {cell(dest, origin)}{note}")
            say(p, verb('Done'))
        else:
            if piece in pos:
                say(p, f"{verb('Pickb')} {cell(pos[piece], origin)} {name}")
            else:
                say(p, f"{verb('Pick')} {piece[0].upper() if not style.get('old') else piece[0]} 1 {name}")
            say(p, f"{verb('Pdropb' if carried else 'Dropb')} {name} {cell(dest, origin)}{note}")
            say(p, verb('Done'))
        pos[piece] = dest
    for p, text in ending:
        say(p, text)
    out.append(';')
    out.append('P0[time 0:04:41 ]')
    out.append('P1[time 0:09:31 ]')
    out.append(')')
    return '\n'.join(out) + '\n'

if __name__ == '__main__':
    spec = json.load(open(sys.argv[1]))
    sys.stdout.write(write(spec['game'], spec['header'], spec.get('style', {}), tuple(spec.get('origin', (13, 13))),
                           [tuple(e) for e in spec.get('ending', [])]))
