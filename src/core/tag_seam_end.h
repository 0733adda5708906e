/* tag_seam_end.h — #undefs what core/tag_seam.h defined. */
#undef D_TAGS
#undef D_TAG_OF
#undef D_TAG_DECL
#undef D_SCAN
#undef D_CLAIM
#undef D_RETIRE
#undef D_RETAG
