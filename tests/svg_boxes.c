#include "tests/svg_boxes.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double tf_test_attr(const char *e, const char *name) {
  char key[48];
  snprintf(key, sizeof key, " %s=\"", name);
  const char *end = strchr(e, '>'), *a = strstr(e, key);
  ck_assert_msg(a && end && a < end, "no %s in %.80s", name, e);
  return atof(a + strlen(key));
}

/* Coarse advances, in em: wide, narrow and middling letters, digits. */
static double em_of(unsigned char c) {
  if (c >= '0' && c <= '9')
    return 0.64;
  if (strchr("iljI.,:;'|!", c))
    return 0.34;
  if (strchr("ftrJ()[]- ", c))
    return 0.42;
  if (strchr("mwMW@%", c))
    return 1.0;
  if (c >= 'A' && c <= 'Z')
    return 0.78;
  if (c >= 'a' && c <= 'z')
    return 0.64;
  return 0.84;
}

double tf_test_text_width(const char *text, double size) {
  double em = 0;
  for (const unsigned char *c = (const unsigned char *)text; *c; c++)
    if (*c < 0x80)
      em += em_of(*c);
    else if ((*c & 0xc0) != 0x80)
      em += 0.8;
  return em * size;
}

/* The content of a text element, the five entities undone. */
static void unescape(const char *from, const char *to, char *out, size_t size) {
  static const struct {
    const char *as;
    char c;
  } ents[] = {{"&lt;", '<'}, {"&gt;", '>'}, {"&amp;", '&'}, {"&quot;", '"'}, {"&apos;", '\''}};
  size_t n = 0;
  while (from < to && n + 1 < size) {
    size_t k = 0;
    for (size_t i = 0; i < 5 && !k; i++)
      if (!strncmp(from, ents[i].as, strlen(ents[i].as)))
        k = strlen(ents[i].as), out[n++] = ents[i].c;
    if (!k)
      out[n++] = *from, k = 1;
    from += k;
  }
  out[n] = 0;
}

/* The box of the <text> at `e`; a rotated one (-90 degrees about its
 * anchor) turned. */
static void text_box(const char *e, tf_test_box *b) {
  double x = tf_test_attr(e, "x"), y = tf_test_attr(e, "y"), size = tf_test_attr(e, "font-size");
  const char *gt = strchr(e, '>'), *close = strstr(e, "</text>");
  ck_assert(gt && close);
  unescape(gt + 1, close, b->text, sizeof b->text);
  double w = tf_test_text_width(b->text, size), lo;
  const char *anchor = strstr(e, "text-anchor=\"");
  lo = anchor && anchor < gt && !strncmp(anchor + 13, "middle", 6) ? -w / 2
       : anchor && anchor < gt && !strncmp(anchor + 13, "end", 3)  ? -w
                                                                   : 0;
  const char *rot = strstr(e, "rotate(");
  if (rot && rot < gt) {
    b->x0 = x - 0.76 * size, b->x1 = x + 0.24 * size;
    b->y0 = y - lo - w, b->y1 = y - lo;
  } else {
    b->x0 = x + lo, b->x1 = x + lo + w;
    b->y0 = y - 0.76 * size, b->y1 = y + 0.24 * size;
  }
}

size_t tf_test_text_boxes(const char *doc, tf_test_box *boxes, size_t max) {
  size_t n = 0;
  for (const char *e = doc; (e = strstr(e, "<text ")) && n < max; e++)
    text_box(e, &boxes[n++]);
  return n;
}

void tf_test_no_overlap(const tf_test_box *b, size_t n, double width, double height) {
  for (size_t i = 0; i < n; i++) {
    ck_assert_msg(b[i].x0 >= -0.5 && b[i].y0 >= -0.5 && b[i].x1 <= width + 0.5 && b[i].y1 <= height + 0.5,
                  "'%s' (%.1f,%.1f)-(%.1f,%.1f) leaves the %.0f x %.0f picture", b[i].text, b[i].x0, b[i].y0, b[i].x1,
                  b[i].y1, width, height);
    for (size_t j = i + 1; j < n; j++) {
      double ox = (b[i].x1 < b[j].x1 ? b[i].x1 : b[j].x1) - (b[i].x0 > b[j].x0 ? b[i].x0 : b[j].x0);
      double oy = (b[i].y1 < b[j].y1 ? b[i].y1 : b[j].y1) - (b[i].y0 > b[j].y0 ? b[i].y0 : b[j].y0);
      ck_assert_msg(ox <= 0.5 || oy <= 0.5, "'%s' (%.1f,%.1f)-(%.1f,%.1f) overlaps '%s' (%.1f,%.1f)-(%.1f,%.1f)",
                    b[i].text, b[i].x0, b[i].y0, b[i].x1, b[i].y1, b[j].text, b[j].x0, b[j].y0, b[j].x1, b[j].y1);
    }
  }
}

static void cell_at(const char *e, tf_test_cell *c) {
  memset(c, 0, sizeof *c);
  const char *id = e + strlen("<rect id=\""), *q = strchr(id, '"');
  ck_assert(q);
  snprintf(c->id, sizeof c->id, "%.*s", (int)(q - id), id);
  c->x = tf_test_attr(e, "x"), c->y = tf_test_attr(e, "y");
  c->w = tf_test_attr(e, "width"), c->h = tf_test_attr(e, "height");
  const char *f = strstr(e, " fill=\"#");
  ck_assert(f);
  memcpy(c->fill, f + 7, 7);
  const char *t = strstr(e, "<title>"), *te = t ? strstr(t, "</title>") : NULL;
  if (t && te)
    unescape(t + 7, te, c->title, sizeof c->title);
  const char *next = strstr(e + 1, "<"), *end = strstr(e, "</rect>");
  next = end ? strstr(end + 1, "<") : next;
  if (next && !strncmp(next, "<text ", 6)) {
    c->labelled = 1;
    text_box(next, &c->label);
  }
}

size_t tf_test_cells(const char *doc, tf_test_cell *cells, size_t max) {
  size_t n = 0;
  for (const char *e = doc; (e = strstr(e, "<rect id=\"cell-")) && n < max; e++)
    cell_at(e, &cells[n++]);
  return n;
}
