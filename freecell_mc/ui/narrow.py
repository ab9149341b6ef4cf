# SPDX-License-Identifier: MIT
"""The table where the layout has no strip at the side (a small, dense panel: the Pynt's).

There the columns take the whole width and Undo and Menu stand in the top row
(layout.py); what the strip held besides goes where the cards leave room: the move
counter in the bottom right corner, over the feet of the last columns (where no index
ever is), Finish under the feet of the columns that leave it room (else in that corner,
the counter making way), the dead-end message under the columns (else in the top row:
tableview.dead_box). And the covered cards of a long column, whose strips hold only a
smaller index there, open in the lens: the column's own cards in two fans at the full
index, over a patch of felt, until the next tap.

Imported by tableview.Strip only for such a layout, so that the boards with a strip do
not hold this code on their heap.
"""

from freecell_mc.ui import cardart, widgets


def build(strip, g):
    """Give strip's counter (in group g) its corner: a patch of dark felt under the digits."""
    c = strip.counter
    c.x = -1  # placed by update(), as the digits need
    strip.badge = widgets.rect(0, c.y - 2, 1, c.tile_height + 4, cardart.FELT_DARK)
    g.insert(g.index(c), strip.badge)


def update(strip, game):
    """Right-align the counter's digits in the corner on their felt; put Finish where the
    columns leave it room, the counter then just left of it where Finish takes its corner
    (along the bottom edge, over no index: every exposed card's is a card's height up);
    hide the counter where there is no room left of Finish or the dead-end panel covers
    it."""
    lay = strip.lay
    c = strip.counter
    badge = strip.badge
    m = game.moves
    n = 1 if m < 10 else 2 if m < 100 else 3 if m < 1000 else 4
    w = n * c.tile_width
    # The grid's blank tiles after the digits run off the screen's edge, drawn nowhere.
    x = lay.width - w - 2
    y1 = badge.y
    b = strip.finish_button
    if strip.finish_shown and b is not None:  # built by Strip.build in the same poll
        place(b, lay, game)
        if x - 2 < b.x + b.w and y1 < b.y + b.h:
            x = b.x - w - 4
    hide = x < 2
    if c.x != x:
        c.x = x
        badge.x = x - 2
        badge.width = w + 4
    d = strip.dead_box
    if d is not None and x - 2 < d[0] + d[2] and y1 < d[1] + d[3]:
        hide = True
    if c.hidden != hide:
        c.hidden = hide
        badge.hidden = hide


def place(button, lay, game):
    """Move button to the bottom edge under the feet of neighbouring columns with 2 pixels
    of felt above it, the rightmost place that fits; else to the bottom right corner (over
    the feet of the last columns)."""
    w = button.w
    h = button.h
    half = lay.gap // 2
    for a in range(7, -1, -1):
        low = lay.col_y
        for b in range(a, -1, -1):
            low = max(low, lay.column_bottom(game.column_len(b)))
            if lay.height - 2 - low < h:
                break
            right = min(lay.width, lay.column_x(a) + lay.card_w + half)
            if right - (lay.column_x(b) - half) >= w:
                button.move(right - w, lay.height - h)
                return
    button.move(lay.width - w, lay.height - h)


def open_lens(view, col):
    """Fan column col of the TableView view over the table at the full index: up to half
    its cards at the left, the rest at the right, the last of each whole, over a patch of
    lighter felt; its own cards, moved and re-tiled (view.sync puts them back)."""
    lay = view.layout
    buf = view.buf
    n = view.app.game.column_cards(col, buf)
    k = (n + 1) // 2
    cw = lay.card_w
    th = lay.tile_h
    w = 2 * cw + 14
    h = (k - 1) * th + lay.card_h + 8
    # Beside the column, towards the middle: the column stays in sight.
    x = lay.column_x(col)
    x = x + cw + 2 if col < 4 else x - w - 2
    y = lay.col_y + (lay.height - lay.col_y - h) // 2
    # Nothing of the strip's over it (view.sync shows them again).
    st = view.strip
    st.dead_group.hidden = True
    if st.finish_button is not None:
        st.finish_button.hidden = True
    st.counter.hidden = True
    st.badge.hidden = True
    bg = view.lens_bg
    cg = view.cards_group
    cg.remove(bg)  # over every card, under the column's, which land on it in order
    cg.append(bg)
    bg.x = x
    bg.y = y
    bg.width = w
    bg.height = h
    bg.hidden = False
    for i in range(n):
        right = i >= k
        view.draw(buf[i] - 4, x + 4 + (cw + 6 if right else 0),
                  y + 4 + ((i - k) if right else i) * th, col, i, True)
    view.lens_col = col


def close_lens(view):
    """Close the lens of the TableView view: hide its felt and show again what it hid of the
    strip's; return the bit of its column, for view.sync to put the column back."""
    col = view.lens_col
    view.lens_col = -1
    view.lens_bg.hidden = True
    st = view.strip
    st.dead_group.hidden = not st.dead_end_shown
    if st.finish_button is not None:
        st.finish_button.hidden = not st.finish_shown
    st.counter.hidden = False  # update() hides it again where Finish or the panel is
    st.badge.hidden = False
    return 1 << col
