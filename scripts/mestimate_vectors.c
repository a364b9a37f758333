/* FFmpeg's mestimate on a pair of binary 8-bit PGMs, for docs/notes/motion.md's comparison: prints
 * one line "column row dx dy sad" per block of the second frame, (dx, dy) pointing from the block
 * to its match in the first (dpxmotionest's convention), sad over the block.
 *
 *   cc -O2 scripts/mestimate_vectors.c $(pkg-config --cflags --libs libavfilter libavutil) -o mestimate_vectors
 *   ./mestimate_vectors esa 16 16 prev.pgm cur.pgm > vectors.txt
 */
#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/frame.h>
#include <libavutil/motion_vector.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_pgm (const char *path, int *w, int *h)
{
  FILE *f = fopen (path, "rb");
  int maxval = 0;
  if (!f || fscanf (f, "P5 %d %d %d", w, h, &maxval) != 3 || maxval != 255 || fgetc (f) == EOF)
    return NULL;
  unsigned char *p = malloc ((size_t) * w * *h);
  if (p && fread (p, 1, (size_t) * w * *h, f) != (size_t) * w * *h) {
    free (p);
    p = NULL;
  }
  fclose (f);
  return p;
}

static AVFrame *gray_frame (const unsigned char *pixels, int w, int h, int64_t pts)
{
  AVFrame *fr = av_frame_alloc ();
  fr->format = AV_PIX_FMT_GRAY8;
  fr->width = w;
  fr->height = h;
  fr->pts = pts;
  if (av_frame_get_buffer (fr, 0) < 0)
    return NULL;
  for (int y = 0; y < h; y++)
    memcpy (fr->data[0] + (size_t) y * fr->linesize[0], pixels + (size_t) y * w, w);
  return fr;
}

int main (int argc, char **argv)
{
  if (argc != 6) {
    fprintf (stderr, "usage: %s esa|tss|tdls|ntss|fss|ds|hexbs|epzs|umh MB_SIZE SEARCH_PARAM prev.pgm cur.pgm\n", argv[0]);
    return 2;
  }
  int w, h, w1, h1;
  unsigned char *prev = read_pgm (argv[4], &w, &h), *cur = read_pgm (argv[5], &w1, &h1);
  if (!prev || !cur || w != w1 || h != h1) {
    fprintf (stderr, "cannot read two PGMs of one size\n");
    return 1;
  }
  AVFilterGraph *graph = avfilter_graph_alloc ();
  AVFilterContext *src = NULL, *me = NULL, *sink = NULL;
  char args[256], me_args[128];
  snprintf (args, sizeof args, "video_size=%dx%d:pix_fmt=%d:time_base=1/25:pixel_aspect=1/1", w, h, AV_PIX_FMT_GRAY8);
  snprintf (me_args, sizeof me_args, "method=%s:mb_size=%s:search_param=%s", argv[1], argv[2], argv[3]);
  if (avfilter_graph_create_filter (&src, avfilter_get_by_name ("buffer"), "in", args, NULL, graph) < 0 ||
      avfilter_graph_create_filter (&me, avfilter_get_by_name ("mestimate"), "me", me_args, NULL, graph) < 0 ||
      avfilter_graph_create_filter (&sink, avfilter_get_by_name ("buffersink"), "out", NULL, NULL, graph) < 0 ||
      avfilter_link (src, 0, me, 0) < 0 || avfilter_link (me, 0, sink, 0) < 0 || avfilter_graph_config (graph, NULL) < 0) {
    fprintf (stderr, "cannot build the filter graph\n");
    return 1;
  }
  /* mestimate emits a frame once the next one arrives: prev, cur, cur again, end. */
  const unsigned char *order[3] = { prev, cur, cur };
  for (int i = 0; i < 3; i++) {
    AVFrame *fr = gray_frame (order[i], w, h, i);
    const int ok = fr != NULL && av_buffersrc_add_frame (src, fr) >= 0;
    av_frame_free (&fr);
    if (!ok) {
      fprintf (stderr, "cannot feed frame %d\n", i);
      return 1;
    }
  }
  if (av_buffersrc_add_frame (src, NULL) < 0)
    return 1;
  AVFrame *out = av_frame_alloc ();
  int printed = 0;
  while (av_buffersink_get_frame (sink, out) >= 0) {
    AVFrameSideData *sd = av_frame_get_side_data (out, AV_FRAME_DATA_MOTION_VECTORS);
    if (out->pts == 1 && sd) {
      const AVMotionVector *mv = (const AVMotionVector *) sd->data;
      for (size_t i = 0; i < sd->size / sizeof *mv; i++) {
        if (mv[i].source != -1)
          continue;
        const int x0 = mv[i].dst_x - mv[i].w / 2, y0 = mv[i].dst_y - mv[i].h / 2;
        const int dx = mv[i].src_x - mv[i].dst_x, dy = mv[i].src_y - mv[i].dst_y;
        long sad = 0;
        for (int y = 0; y < mv[i].h; y++)
          for (int x = 0; x < mv[i].w; x++)
            sad += abs (cur[(size_t) (y0 + y) * w + x0 + x] - prev[(size_t) (y0 + y + dy) * w + x0 + x + dx]);
        printf ("%d %d %d %d %ld\n", x0 / mv[i].w, y0 / mv[i].h, dx, dy, sad);
        printed++;
      }
    }
    av_frame_unref (out);
  }
  av_frame_free (&out);
  avfilter_graph_free (&graph);
  return printed > 0 ? 0 : 1;
}
