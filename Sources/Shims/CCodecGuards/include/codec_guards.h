int tessera_codec_guards_placeholder(void);
