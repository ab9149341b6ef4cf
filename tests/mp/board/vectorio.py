# SPDX-License-Identifier: MIT
"""vectorio.Rectangle stood in at its C size (see displayio.py for the method).

shared-module/vectorio/Rectangle.h: vectorio_rectangle_t 24 B -> 32 B; its make_new
(shared-bindings/vectorio/Rectangle.c) also makes a VectorShape, vectorio_vector_shape_t
(shared-module/vectorio/VectorShape.h) 56 B -> 64 B: 96 bytes in all.
"""



class Rectangle:
    """A filled rectangle: 96 bytes."""

    def __init__(self, *, pixel_shader, width, height, x=0, y=0, color_index=0):
        self.pixel_shader = pixel_shader
        self.width = width
        self.height = height
        self.x = x
        self.y = y
        self.color_index = color_index
        self.hidden = False
        # Seven attributes and an empty bytearray: 16 + 64 + 16 = 96 bytes.
        self._c = bytearray(0)
